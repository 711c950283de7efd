package dev.baton.spring.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.baton.wire.WireJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Request bodies under {@code baton serve}'s input rules — at most a configured size (413 beyond), valid UTF-8, no NUL,
 * one strict JSON object (duplicate keys, trailing tokens, unknown fields and a number where a string belongs are
 * 400s naming the field) — with the API's one JSON mapper ({@link WireJson}). The API answers with Baton's own Jackson 2 trees as text,
 * so the app's HTTP message converters (Jackson 3 in Spring Boot 4) never see Baton's types.
 */
final class ApiJson {
    static final ObjectMapper MAPPER = WireJson.MAPPER;

    private ApiJson() {}

    /** The request's body as text, under the size and encoding rules. */
    static String read(InputStream in, long declaredLength, int maxBytes) {
        if (declaredLength > maxBytes) throw tooLarge(maxBytes);
        byte[] bytes;
        try {
            bytes = in.readNBytes(maxBytes + 1);
        } catch (IOException e) {
            throw ApiProblem.badRequest("could not read the request body");
        }
        if (bytes.length > maxBytes) throw tooLarge(maxBytes);
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
        if (text.indexOf('\0') >= 0)
            throw new ApiProblem(400, "invalid_content", "request body must not contain NUL characters");
        return text;
    }

    /** A JSON object body bound to a record; an empty body is an error. */
    static <T> T bind(String text, Class<T> type) {
        if (text.isBlank()) throw new ApiProblem(400, "invalid_json", "request body must be a JSON object");
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ApiProblem(400, "invalid_json", "malformed JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject())
            throw new ApiProblem(400, "invalid_json", "request body must be a JSON object");
        try {
            return MAPPER.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new ApiProblem(400, "unknown_field", "unknown field '" + e.getPropertyName() + "'");
        } catch (JsonProcessingException e) {
            String field = e instanceof JsonMappingException m && !m.getPath().isEmpty()
                    ? m.getPath().getLast().getFieldName()
                    : null;
            throw new ApiProblem(
                    400,
                    "invalid_request",
                    field == null ? "invalid request body" : "field '" + field + "' has the wrong type");
        }
    }

    private static ApiProblem tooLarge(int maxBytes) {
        return new ApiProblem(413, "payload_too_large", "request body exceeds " + maxBytes + " bytes");
    }
}
