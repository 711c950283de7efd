package dev.baton.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a request body under the API's input rules, whichever door serves it: at most {@code maxBytes} (413 beyond,
 * checked while reading so a lying or absent Content-Length cannot get more through), valid UTF-8, no NUL bytes, one
 * strict JSON object (duplicate keys, trailing tokens, unknown fields and a number where a string belongs are 400s
 * naming the field).
 */
public final class RequestBodies {

    private RequestBodies() {}

    public static String readUtf8(InputStream in, long declaredLength, int maxBytes) {
        if (declaredLength > maxBytes) throw tooLarge(in, maxBytes);
        byte[] bytes;
        try {
            // a declared length sizes the read (one byte more, to see a body longer than it said); without one the
            // read would start from a 16 KB buffer for what is mostly a few dozen bytes
            int limit = declaredLength >= 0 ? (int) declaredLength + 1 : maxBytes + 1;
            bytes = in.readNBytes(limit);
            if (declaredLength >= 0 && bytes.length > declaredLength) {
                byte[] more = in.readNBytes(maxBytes + 1 - bytes.length);
                bytes = concat(bytes, more);
            }
        } catch (IOException e) {
            throw ApiProblem.badRequest("could not read the request body");
        }
        if (bytes.length > maxBytes) throw tooLarge(in, maxBytes);
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ApiProblem(400, "invalid_encoding", "request body is not valid UTF-8");
        }
        if (text.indexOf('\0') >= 0) {
            throw new ApiProblem(400, "invalid_content", "request body must not contain NUL characters");
        }
        return text;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** Parses a JSON object body; an empty body is an error. */
    public static JsonNode parseObject(String text) {
        if (text.isBlank()) throw new ApiProblem(400, "invalid_json", "request body must be a JSON object");
        JsonNode node;
        try {
            node = WireJson.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ApiProblem(400, "invalid_json", "malformed JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new ApiProblem(400, "invalid_json", "request body must be a JSON object");
        }
        return node;
    }

    /** Binds a JSON object to a record; unknown fields and wrong types are 400s naming the field. */
    public static <T> T bind(JsonNode node, Class<T> type) {
        try {
            return WireJson.MAPPER.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new ApiProblem(400, "unknown_field", "unknown field '" + e.getPropertyName() + "'");
        } catch (JsonProcessingException e) {
            String field = e instanceof com.fasterxml.jackson.databind.JsonMappingException m
                            && !m.getPath().isEmpty()
                    ? m.getPath().get(m.getPath().size() - 1).getFieldName()
                    : null;
            throw new ApiProblem(
                    400,
                    "invalid_request",
                    field == null ? "invalid request body" : "field '" + field + "' has the wrong type");
        }
    }

    /** The 413, after reading (and dropping) what the client still sends, as for any refusal. */
    private static ApiProblem tooLarge(InputStream in, int maxBytes) {
        discardUnread(in);
        return tooLarge(maxBytes);
    }

    /**
     * Reads and drops what is left of a request body, up to a bound, before the server answers without it. A
     * client still writing its body when the answer ends the exchange would otherwise see a reset instead of the
     * answer: HTTP/1.1 closes the connection, and HTTP/2 resets a stream whose body the client has not finished
     * (one larger than the stream's flow-control window never can be, unless the server reads).
     */
    public static void discardUnread(InputStream in) {
        try {
            // nearly always nothing is left: one byte tells, before a buffer is made for the rest
            if (in.read() < 0) return;
            long skipped = 1;
            byte[] sink = new byte[8192];
            int n;
            while (skipped < DRAIN_LIMIT_BYTES && (n = in.read(sink)) > 0) skipped += n;
        } catch (IOException | IllegalStateException e) {
            // the client gave up, or the body was taken as a reader: nothing is left to drop here
        }
    }

    /** How much of a refused body is read and dropped before answering (beyond it, the client sees the reset). */
    public static final long DRAIN_LIMIT_BYTES = 4L * 1024 * 1024;

    private static ApiProblem tooLarge(int maxBytes) {
        return new ApiProblem(413, "payload_too_large", "request body exceeds " + maxBytes + " bytes");
    }
}
