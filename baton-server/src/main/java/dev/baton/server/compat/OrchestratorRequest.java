package dev.baton.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import java.util.regex.Pattern;

/**
 * The stateless orchestrator's request (design 003): {@code input} of 1 to 5,000 characters once control characters
 * other than \n \r \t are stripped, an optional {@code conversation_id} in UUID form and an optional {@code user_id}.
 * That design answers a request that breaks these with 422, so every refusal here is {@link Refusal.InvalidValue};
 * a {@code user_id} that is not the caller's is 403. Other fields are ignored, as that design's request model does.
 */
record OrchestratorRequest(String input, String conversationId) {
    static final int MAX_INPUT = 5_000;
    private static final Pattern UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    static OrchestratorRequest parse(JsonNode body, Principal caller) {
        JsonNode userId = body.path("user_id");
        if (!userId.isMissingNode() && !userId.isNull()) {
            if (!userId.isTextual()) throw invalid("user_id must be a string");
            if (!userId.textValue().equals(caller.userId()))
                throw RefusalException.forbidden("user_id is not the signed-in user");
        }
        JsonNode input = body.path("input");
        if (!input.isTextual()) throw invalid("input is required and must be a string");
        String text = stripControls(input.textValue());
        int length = text.codePointCount(0, text.length());
        if (text.isBlank() || length > MAX_INPUT) {
            throw invalid("input must be 1-" + MAX_INPUT + " characters after control characters are removed (got "
                    + length + ")");
        }
        JsonNode conversation = body.path("conversation_id");
        String conversationId = null;
        if (!conversation.isMissingNode() && !conversation.isNull()) {
            if (!conversation.isTextual()
                    || !UUID.matcher(conversation.textValue()).matches())
                throw invalid("conversation_id must be a UUID");
            conversationId = conversation.textValue().toLowerCase(java.util.Locale.ROOT);
        }
        return new OrchestratorRequest(text, conversationId);
    }

    /** Keeps \n, \r and \t; drops every other C0 and C1 control character and DEL (NUL included). */
    static String stripControls(String raw) {
        StringBuilder kept = new StringBuilder(raw.length());
        raw.codePoints()
                .filter(cp -> cp == '\n' || cp == '\r' || cp == '\t' || !(cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)))
                .forEach(kept::appendCodePoint);
        return kept.toString();
    }

    private static RefusalException invalid(String message) {
        return new RefusalException(new Refusal.InvalidValue(message));
    }
}
