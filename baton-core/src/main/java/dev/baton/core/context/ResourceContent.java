package dev.baton.core.context;

/**
 * What reading one attached resource gave, for the system prompt: its text (bounded), a binary one that is only named,
 * or one that could not be read now.
 */
public sealed interface ResourceContent {
    String server();

    String uri();

    /**
     * A text resource.
     *
     * @param text at most the configured number of bytes of it (UTF-8), cut at a character boundary
     * @param originalBytes how many bytes it had
     */
    record Text(String server, String uri, String mimeType, String text, long originalBytes)
            implements ResourceContent {
        /** Whether only the start of it is in {@link #text()}. */
        public boolean truncated() {
            return originalBytes > text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
    }

    /** A binary resource (a blob): named, never put in the context. */
    record Binary(String server, String uri, String mimeType, long bytes) implements ResourceContent {}

    /**
     * A resource that could not be read: the server is down or unknown, the caller may not use it, it has no such
     * resource.
     *
     * @param reason for the log, never for the model (it may be the server's own text)
     */
    record Unreadable(String server, String uri, String reason) implements ResourceContent {}
}
