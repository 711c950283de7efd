package dev.baton.server.openai;

import com.fasterxml.jackson.databind.JsonNode;

/** Reading the OpenAI wire's request fields, each refusal naming its field. */
final class OpenAiFields {
    private OpenAiFields() {}

    static String requiredText(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) throw InvalidRequest.of(field, "'" + field + "' is required");
        if (!v.isTextual() || v.asText().isBlank())
            throw InvalidRequest.of(field, "'" + field + "' must be a non-empty string");
        return v.asText();
    }

    /** A boolean field; absent or null is false. */
    static boolean flag(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) return false;
        if (!v.isBoolean()) throw InvalidRequest.of(field, "'" + field + "' must be a boolean");
        return v.asBoolean();
    }
}
