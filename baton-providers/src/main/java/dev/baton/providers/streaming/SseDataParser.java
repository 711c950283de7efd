package dev.baton.providers.streaming;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads the data of server-sent events from a response body's bytes, on the thread that pulls them, one event per call:
 * the bytes after an event stay in their buffer until the reader asks for the next one. Lines end at CR, LF or CRLF,
 * also when a buffer ends between the CR and the LF; a line split between buffers is carried over. Only {@code data}
 * fields mean anything to a chat completion stream: comments and the event, id and retry fields are skipped.
 *
 * <p>The bytes are read where they lie (the buffers are the HTTP client's pooled, often direct, ones): only an event's
 * data is copied, once, into the array that {@link SseData} shows; no String is made.
 */
final class SseDataParser {

    /** The most one event's data, or one line, may hold: a provider that never ends a line must not fill the heap. */
    static final int MAX_EVENT_BYTES = 16 << 20;

    private byte[] carried = new byte[256];
    private int carriedLength;
    private byte[] data = new byte[1024];
    private int dataLength;
    private boolean hasData;
    /** The last buffer ended with a CR: an LF opening the next one ends no further line. */
    private boolean afterCr;

    /**
     * The data of the next event whose blank line is in {@code bytes}, which are read up to that line; or {@code null}
     * once all of them are read without completing an event (what was begun carries over to the next buffer).
     *
     * @throws IOException when an event or a line is longer than {@link #MAX_EVENT_BYTES}
     */
    SseData next(ByteBuffer bytes) throws IOException {
        int position = bytes.position();
        int limit = bytes.limit();
        if (afterCr && position < limit) {
            afterCr = false;
            if (bytes.get(position) == '\n') position++;
        }
        int lineStart = position;
        for (int i = position; i < limit; i++) {
            byte b = bytes.get(i);
            if (b != '\n' && b != '\r') continue;
            int next = i + 1;
            if (b == '\r') {
                if (next == limit) afterCr = true;
                else if (bytes.get(next) == '\n') next++;
            }
            boolean dispatch = line(bytes, lineStart, i);
            lineStart = next;
            i = next - 1;
            if (dispatch) {
                bytes.position(lineStart);
                return take();
            }
        }
        carry(bytes, lineStart, limit);
        bytes.position(limit);
        return null;
    }

    /** The stream ended: its last line and last event count even without their line ends, as they did before. */
    SseData end() throws IOException {
        afterCr = false;
        if (carriedLength > 0) {
            var line = ByteBuffer.wrap(carried, 0, carriedLength);
            carriedLength = 0;
            field(line, 0, line.limit());
        }
        return hasData ? take() : null;
    }

    /** @return whether the line is the blank one that dispatches an event with data */
    private boolean line(ByteBuffer bytes, int from, int to) throws IOException {
        if (carriedLength == 0) return field(bytes, from, to);
        carry(bytes, from, to);
        var line = ByteBuffer.wrap(carried, 0, carriedLength);
        carriedLength = 0;
        return field(line, 0, line.limit());
    }

    private boolean field(ByteBuffer bytes, int from, int to) throws IOException {
        if (from == to) return hasData;
        if (to - from < 5 || !startsWithData(bytes, from)) return false;
        int value = from + 5;
        // the SSE spec strips exactly one leading space
        if (value < to && bytes.get(value) == ' ') value++;
        if (hasData) {
            data = room(data, dataLength, 1);
            data[dataLength++] = '\n';
        }
        data = room(data, dataLength, to - value);
        bytes.get(value, data, dataLength, to - value);
        dataLength += to - value;
        hasData = true;
        return false;
    }

    private static boolean startsWithData(ByteBuffer bytes, int at) {
        return bytes.get(at) == 'd'
                && bytes.get(at + 1) == 'a'
                && bytes.get(at + 2) == 't'
                && bytes.get(at + 3) == 'a'
                && bytes.get(at + 4) == ':';
    }

    private SseData take() {
        var event = new SseData(data, dataLength);
        dataLength = 0;
        hasData = false;
        return event;
    }

    private void carry(ByteBuffer bytes, int from, int to) throws IOException {
        carried = room(carried, carriedLength, to - from);
        bytes.get(from, carried, carriedLength, to - from);
        carriedLength += to - from;
    }

    private static byte[] room(byte[] buffer, int used, int more) throws IOException {
        int needed = used + more;
        if (needed <= buffer.length) return buffer;
        if (needed > MAX_EVENT_BYTES) {
            throw new IOException("a server-sent event longer than " + MAX_EVENT_BYTES + " bytes");
        }
        return Arrays.copyOf(buffer, Math.max(needed, Math.min(buffer.length * 2, MAX_EVENT_BYTES)));
    }
}
