package dev.baton.server.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.runtime.approval.ConfirmationReply;
import java.util.Optional;

/**
 * The user's message of a {@code SendMessage}/{@code SendStreamingMessage} call: its text (every text part, joined by
 * new lines), the context and task it continues, and — for a task that waits for approval — the answer it carries: a
 * data part {@code {"approve": true|false, "comment"?: "…"}}, or else a text that is a clear yes or no.
 */
record IncomingMessage(String text, String contextId, String taskId, Boolean approve, String comment) {

    /** @throws A2aError invalid params when there is no message, no user role, or nothing in it */
    static IncomingMessage from(JsonNode params) {
        JsonNode message = params.path("message");
        if (!message.isObject()) throw A2aError.invalidParams("params.message is required");
        String role = message.path("role").asText("");
        if (!role.equals("ROLE_USER") && !role.equals("user"))
            throw A2aError.invalidParams("params.message.role must be ROLE_USER");
        JsonNode parts = message.path("parts");
        if (!parts.isArray() || parts.isEmpty())
            throw A2aError.invalidParams("params.message.parts must hold at least one part");
        StringBuilder text = new StringBuilder();
        Boolean approve = null;
        String comment = null;
        for (JsonNode part : parts) {
            if (part.path("text").isTextual()) {
                if (!text.isEmpty()) text.append('\n');
                text.append(part.path("text").asText());
            } else if (part.path("data").isObject()) {
                JsonNode data = part.path("data");
                if (data.has("approve")) {
                    if (!data.path("approve").isBoolean())
                        throw A2aError.invalidParams("a data part's approve must be true or false");
                    approve = data.path("approve").booleanValue();
                    if (data.path("comment").isTextual())
                        comment = data.path("comment").asText();
                }
            } else {
                throw A2aError.invalidParams("only text parts and data parts are accepted");
            }
        }
        return new IncomingMessage(
                text.toString(), optional(message, "contextId"), optional(message, "taskId"), approve, comment);
    }

    private static String optional(JsonNode message, String field) {
        JsonNode v = message.path(field);
        if (v.isMissingNode() || v.isNull() || v.asText().isEmpty()) return null;
        if (!v.isTextual()) throw A2aError.invalidParams("params.message." + field + " must be a string");
        return v.asText();
    }

    /**
     * The answer to a held tool call: the data part's, else a text that is a clear yes or no by the runtime's fixed
     * rules ({@link ConfirmationReply}, the same as every door's approval in words); empty when it is neither.
     */
    Optional<Boolean> approval() {
        if (approve != null) return Optional.of(approve);
        return switch (ConfirmationReply.of(text)) {
            case YES -> Optional.of(true);
            case NO -> Optional.of(false);
            case OTHER -> Optional.empty();
        };
    }
}
