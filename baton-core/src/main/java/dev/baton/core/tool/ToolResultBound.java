package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.json.PooledJsonFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * The one bound on what a tool call gives back, whatever its shape — text, structured content, the JSON of an
 * in-process tool, an error's message — applied where every call finishes ({@link ToolExecutor}), so it holds before
 * the result is stored, streamed to the client, sent back over MCP or sent to the model.
 *
 * <p>A result whose JSON text is longer than {@value #MAX_CHARS} characters is replaced by
 * {@code {"truncated": true, "originalChars": …, "note": …, "partial": "<the first characters of its JSON text>"}},
 * itself within the bound once written: the model is told that it sees only part of it, and how much is missing. Measuring stops at the bound, so a result
 * of megabytes is never written out whole.
 */
public final class ToolResultBound {
    /** The most characters of JSON text a tool result may have. */
    public static final int MAX_CHARS = 100_000;

    /** Room kept for the stand-in's own fields, so that the stand-in's JSON text is within the bound too. */
    private static final int ENVELOPE_CHARS = 1_000;

    private static final ObjectMapper JSON = new ObjectMapper(PooledJsonFactory.create());

    private ToolResultBound() {}

    /** The result itself when its JSON text fits, else the truncated stand-in for it. */
    public static JsonNode apply(JsonNode result) {
        BoundedWriter text = new BoundedWriter(MAX_CHARS);
        try {
            JSON.writeValue(text, result);
            return result;
        } catch (IOException e) {
            if (!text.full()) throw new UncheckedIOException(e);
        }
        long original = length(result);
        String partial = escapedPrefix(text.written(), MAX_CHARS - ENVELOPE_CHARS);
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("truncated", true);
        out.put("originalChars", original);
        out.put(
                "note",
                "The tool's result was " + original + " characters of JSON, more than the " + MAX_CHARS
                        + " allowed: only its first " + partial.length()
                        + " characters are shown, as text cut mid-way. Say so if the answer may be in the rest.");
        out.put("partial", partial);
        return out;
    }

    /** An error message cut at the same bound. */
    public static String apply(String message) {
        if (message == null || message.length() <= MAX_CHARS) return message;
        return message.substring(0, MAX_CHARS) + "… (cut: the message was " + message.length() + " characters)";
    }

    /** The longest prefix of {@code text} whose length once escaped as a JSON string is at most {@code limit}. */
    private static String escapedPrefix(String text, int limit) {
        int escaped = 0;
        int end = 0;
        while (end < text.length()) {
            char c = text.charAt(end);
            int width = c == '"' || c == '\\' ? 2 : c < 0x20 ? 6 : 1;
            if (escaped + width > limit) break;
            escaped += width;
            end++;
        }
        // never split a surrogate pair
        if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) end--;
        return text.substring(0, end);
    }

    /** The full length of the result's JSON text, counted without keeping it. */
    private static long length(JsonNode result) {
        CountingWriter counted = new CountingWriter();
        try {
            JSON.writeValue(counted, result);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counted.count;
    }

    /** Keeps up to {@code limit} characters, then refuses more (which stops the serialiser). */
    private static final class BoundedWriter extends Writer {
        private final StringBuilder kept = new StringBuilder();
        private final int limit;
        private boolean full;

        BoundedWriter(int limit) {
            this.limit = limit;
        }

        @Override
        public void write(char[] chars, int offset, int length) throws IOException {
            int room = limit - kept.length();
            kept.append(chars, offset, Math.min(room, length));
            if (length > room) {
                full = true;
                throw new IOException("the result is longer than " + limit + " characters");
            }
        }

        boolean full() {
            return full;
        }

        String written() {
            return kept.toString();
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    private static final class CountingWriter extends Writer {
        long count;

        @Override
        public void write(char[] chars, int offset, int length) {
            count += length;
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
