package dev.baton.providers.streaming;

import java.nio.charset.StandardCharsets;

/**
 * The data of one server-sent event as UTF-8 bytes (multi-line data joined with {@code \n}, as the SSE spec says), for
 * a parser that reads bytes (Jackson's) without a String in between. A view of the reader's buffer: valid until the
 * stream is read again, so it is handled before the next piece is asked for, and never kept.
 *
 * @param bytes holds the data in its first {@code length} bytes
 */
public record SseData(byte[] bytes, int length) {

    /** What the stream yields once the provider closed it (compare by identity). */
    public static final SseData END_OF_STREAM = new SseData(new byte[0], 0);

    public SseData {
        if (length < 0 || length > bytes.length) {
            throw new IllegalArgumentException("length " + length + " outside the " + bytes.length + " bytes");
        }
    }

    /** Whether the data is exactly {@code ascii} (a marker such as {@code [DONE]}), without decoding it. */
    public boolean is(String ascii) {
        if (ascii.length() != length) return false;
        for (int i = 0; i < length; i++) {
            if (bytes[i] != ascii.charAt(i)) return false;
        }
        return true;
    }

    /** The data decoded; for errors and tests, not for every event. */
    public String text() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return this == END_OF_STREAM ? "SseData[end of stream]" : "SseData[" + text() + "]";
    }
}
