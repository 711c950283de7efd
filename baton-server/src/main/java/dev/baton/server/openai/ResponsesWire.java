package dev.baton.server.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.server.http.Json;

/** The JSON of OpenAI's Responses API: a response, its output items, usage. */
final class ResponsesWire {
    /** The {@code server_label} of Baton's tools in approval requests: they are the agent's, run by Baton. */
    static final String SERVER_LABEL = "baton";

    private ResponsesWire() {}

    /**
     * A {@code response} object.
     *
     * @param usage null while the turn runs, or when not known (a response read back)
     */
    static ObjectNode response(
            String id,
            long createdAt,
            String status,
            String model,
            ArrayNode output,
            ObjectNode usage,
            String previousResponseId,
            String sessionId) {
        ObjectNode r = Json.MAPPER
                .createObjectNode()
                .put("id", id)
                .put("object", "response")
                .put("created_at", createdAt)
                .put("status", status)
                .put("model", model);
        r.putNull("error");
        r.putNull("incomplete_details");
        r.putNull("instructions");
        r.set("output", output);
        r.put("parallel_tool_calls", false);
        r.put("previous_response_id", previousResponseId);
        r.putObject("conversation").put("id", sessionId);
        r.putArray("tools");
        r.putObject("metadata");
        r.set("usage", usage);
        return r;
    }

    static ArrayNode output() {
        return Json.MAPPER.createArrayNode();
    }

    /** An assistant {@code message} item; {@code text} null while it is being written (no content part yet). */
    static ObjectNode message(String itemId, String status, String text) {
        ObjectNode m = Json.MAPPER
                .createObjectNode()
                .put("type", "message")
                .put("id", itemId)
                .put("status", status)
                .put("role", "assistant");
        ArrayNode content = m.putArray("content");
        if (text != null) content.add(textPart(text));
        return m;
    }

    static ObjectNode textPart(String text) {
        ObjectNode part =
                Json.MAPPER.createObjectNode().put("type", "output_text").put("text", text);
        part.putArray("annotations");
        return part;
    }

    /** A call waiting for the user's approval, as the Responses API asks for MCP approvals. */
    static ObjectNode approvalRequest(TurnEvent.ApprovalRequired call) {
        return approvalRequest(call.callId(), call.name(), call.arguments().toString());
    }

    static ObjectNode approvalRequest(ToolApproval call) {
        return approvalRequest(call.callId(), call.toolName(), call.arguments());
    }

    private static ObjectNode approvalRequest(String callId, String name, String arguments) {
        return Json.MAPPER
                .createObjectNode()
                .put("type", "mcp_approval_request")
                .put("id", callId)
                .put("server_label", SERVER_LABEL)
                .put("name", name)
                .put("arguments", arguments);
    }

    static ObjectNode usage(TurnEvent.Usage usage) {
        ObjectNode u = Json.MAPPER
                .createObjectNode()
                .put("input_tokens", usage.inputTokens())
                .put("output_tokens", usage.outputTokens())
                .put("total_tokens", usage.inputTokens() + usage.outputTokens());
        u.putObject("input_tokens_details").put("cached_tokens", usage.cachedInputTokens());
        u.putObject("output_tokens_details").put("reasoning_tokens", 0);
        return u;
    }

    /** A failed response's {@code error}. */
    static JsonNode error(TurnEvent.Failed failed) {
        return Json.MAPPER.createObjectNode().put("code", failed.code()).put("message", failed.message());
    }
}
