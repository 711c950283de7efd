package dev.baton.server.http;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How the HTTP server takes connections and streams (baton.yaml's {@code server:} section).
 *
 * @param acceptQueue how many connections the kernel may hold for Baton before it accepts them (the listen backlog,
 *     {@code server.acceptQueue}, 1,024 by default): a burst of connections beyond it is refused or reset. Linux caps
 *     it at {@code net.core.somaxconn} (4,096 on kernels since 5.4, 128 before), so raise that too for a larger queue
 * @param sseBufferBytes how many bytes one SSE stream may hold for a client that does not take them
 *     ({@code server.sseBufferBytes}, 16 KiB by default); when it is full the stream's turn waits, until its deadline
 */
public record HttpSettings(int acceptQueue, int sseBufferBytes) {
    public static final int DEFAULT_ACCEPT_QUEUE = 1024;
    public static final HttpSettings DEFAULTS = new HttpSettings(DEFAULT_ACCEPT_QUEUE, SseStreams.DEFAULT_BUFFER_BYTES);

    public HttpSettings {
        if (acceptQueue < 1 || acceptQueue > 65_535)
            throw new IllegalArgumentException("server.acceptQueue must be 1..65535");
        if (sseBufferBytes < 1024 || sseBufferBytes > 64 * 1024 * 1024)
            throw new IllegalArgumentException("server.sseBufferBytes must be 1024..67108864");
    }

    /** The {@code server:} section; a missing key keeps the default. */
    public static HttpSettings from(JsonNode server) {
        return new HttpSettings(
                intOr(server, "acceptQueue", DEFAULT_ACCEPT_QUEUE),
                intOr(server, "sseBufferBytes", SseStreams.DEFAULT_BUFFER_BYTES));
    }

    private static int intOr(JsonNode server, String key, int otherwise) {
        JsonNode value = server == null ? null : server.path(key);
        if (value == null || value.isMissingNode() || value.isNull()) return otherwise;
        if (!value.canConvertToInt()) throw new IllegalArgumentException("server." + key + " must be a number");
        return value.asInt();
    }
}
