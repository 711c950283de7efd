package dev.baton.server.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code POST /v1/responses} body as the door uses it: one new user message, or answers to the approval requests of
 * the previous response ({@code mcp_approval_response} items), continuing the session of {@code previous_response_id}
 * or {@code conversation} (a Baton session id), or starting one with {@code model}'s agent. {@code instructions} and
 * sampling fields are the agent's to decide and are ignored; client-side {@code tools} are refused.
 *
 * @param model the agent's id; null when the request continues a session (whose agent answers)
 * @param message the new user message; null when the request answers approval requests
 * @param approvals the answers to approval requests, in order; empty with a message
 */
record ResponsesRequest(
        String model,
        String message,
        List<ApprovalAnswer> approvals,
        String previousResponseId,
        String conversationId,
        boolean stream) {

    /** An {@code mcp_approval_response} item: the approval request it answers and whether the call may run. */
    record ApprovalAnswer(String requestId, boolean approve, String reason) {}

    ResponsesRequest {
        approvals = List.copyOf(approvals);
    }

    static ResponsesRequest parse(JsonNode body) {
        JsonNode tools = body.get("tools");
        if (tools != null && !tools.isNull() && !(tools.isArray() && tools.isEmpty()))
            throw InvalidRequest.of(
                    "tools",
                    "client-side tools are not supported: the agent's tools run on the server (see"
                            + " docs/openai-compat.md)");
        String previous = optionalText(body, "previous_response_id");
        String conversation = conversation(body.get("conversation"));
        if (previous != null && conversation != null)
            throw InvalidRequest.of("conversation", "give 'previous_response_id' or 'conversation', not both");
        String model = previous == null && conversation == null
                ? OpenAiFields.requiredText(body, "model")
                : optionalText(body, "model");
        boolean stream = OpenAiFields.flag(body, "stream");
        JsonNode input = body.get("input");
        if (input == null || input.isNull()) throw InvalidRequest.of("input", "'input' is required");
        if (input.isTextual())
            return new ResponsesRequest(model, input.asText(), List.of(), previous, conversation, stream);
        if (!input.isArray() || input.isEmpty())
            throw InvalidRequest.of("input", "'input' must be a string or a non-empty array of items");
        String message = null;
        List<ApprovalAnswer> answers = new ArrayList<>();
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String where = "input[" + i + "]";
            String type = item.path("type").asText(item.has("role") ? "message" : "");
            switch (type) {
                case "message" -> {
                    if (message != null)
                        throw InvalidRequest.of(
                                where,
                                "send one user message per request; earlier ones are the session's"
                                        + " (previous_response_id)");
                    if (!"user".equals(item.path("role").asText()))
                        throw InvalidRequest.of(where + ".role", "only the user's message is sent as input");
                    message = text(item.get("content"), where + ".content");
                }
                case "mcp_approval_response" -> {
                    JsonNode id = item.get("approval_request_id");
                    if (id == null || !id.isTextual() || id.asText().isBlank())
                        throw InvalidRequest.of(where + ".approval_request_id", "'approval_request_id' is required");
                    JsonNode approve = item.get("approve");
                    if (approve == null || !approve.isBoolean())
                        throw InvalidRequest.of(where + ".approve", "'approve' must be a boolean");
                    JsonNode reason = item.get("reason");
                    answers.add(new ApprovalAnswer(
                            id.asText(),
                            approve.asBoolean(),
                            reason != null && reason.isTextual() ? reason.asText() : null));
                }
                default -> throw InvalidRequest.of(where + ".type", "unsupported input item type '" + type + "'");
            }
        }
        if (message != null && !answers.isEmpty())
            throw InvalidRequest.of("input", "answer the approval requests or send a message, not both at once");
        if (!answers.isEmpty() && previous == null && conversation == null)
            throw InvalidRequest.of("previous_response_id", "approval answers continue a previous response");
        return new ResponsesRequest(model, message, answers, previous, conversation, stream);
    }

    private static String text(JsonNode content, String where) {
        if (content == null || content.isNull()) throw InvalidRequest.of(where, "'content' is required");
        if (content.isTextual()) return content.asText();
        if (!content.isArray()) throw InvalidRequest.of(where, "'content' must be a string or an array");
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            String type = part.path("type").asText();
            if (!(type.equals("input_text") || type.equals("text"))
                    || !part.path("text").isTextual())
                throw InvalidRequest.of(where, "only text content parts are supported");
            text.append(part.get("text").asText());
        }
        return text.toString();
    }

    private static String conversation(JsonNode node) {
        if (node == null || node.isNull()) return null;
        JsonNode id = node.isObject() ? node.get("id") : node;
        if (id == null || !id.isTextual() || id.asText().isBlank())
            throw InvalidRequest.of("conversation", "'conversation' must be a session id or {\"id\": ...}");
        return id.asText();
    }

    private static String optionalText(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) return null;
        return OpenAiFields.requiredText(body, field);
    }
}
