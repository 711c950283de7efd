package dev.baton.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.server.http.Json;
import dev.baton.server.http.SseTurnListener;
import dev.baton.server.http.SseWriter;
import java.util.HashMap;
import java.util.Map;

/**
 * The stateless orchestrator's SSE wire (design 003), written from the runtime's events: {@code thinking {content}},
 * {@code tool_call {tool_name, arguments, status}} (in_progress, then completed or failed), {@code response_delta
 * {delta, accumulated}}, {@code error {error_type, message, recoverable}} and {@code done {final_output,
 * tools_called, success, conversation_id}}; data carries exactly those fields ({@code conversation_id} is Baton's
 * addition, the request's field name, so the client can continue or answer). One instance per stream: it keeps the
 * text so far, each call's arguments and the conversation.
 */
final class OrchestratorEvents implements SseTurnListener.Encoder {
    private final StringBuilder accumulated = new StringBuilder();
    private final Map<String, JsonNode> argumentsById = new HashMap<>();
    private final ArrayNode toolsCalled = Json.MAPPER.createArrayNode();
    private boolean failed;
    private String conversationId;
    private String requestId;

    @Override
    public void send(SseWriter sse, TurnEvent event) {
        switch (event) {
            // the design has no start event: the first event says it began; done names the conversation
            case TurnEvent.Started started -> {
                conversationId = started.sessionId();
                requestId = started.requestId();
            }
            case TurnEvent.Thinking thinking -> sse.sendAsIs("thinking", data().put("content", thinking.content()));
            case TurnEvent.Chunk chunk -> delta(sse, chunk.content());
            case TurnEvent.Blocked blocked -> delta(sse, blocked.response());
            // this design has no such event: the tool's result tells the model, which tells the user
            case TurnEvent.ConnectRequired connect -> {}
            case TurnEvent.ToolCallStarted call -> {
                argumentsById.put(call.id(), call.arguments());
                ObjectNode d = data().put("tool_name", call.name());
                d.set("arguments", call.arguments());
                sse.sendAsIs("tool_call", d.put("status", "in_progress"));
            }
            case TurnEvent.ToolCallFinished call -> {
                toolsCalled.add(call.name());
                ObjectNode d = data().put("tool_name", call.name());
                d.set("arguments", argumentsById.getOrDefault(call.id(), Json.MAPPER.createObjectNode()));
                sse.sendAsIs("tool_call", d.put("status", call.ok() ? "completed" : "failed"));
            }
            case TurnEvent.Failed f -> {
                failed = true;
                sse.sendAsIs(
                        "error",
                        data().put("error_type", f.code())
                                .put("message", f.message())
                                .put("recoverable", f.retryable())
                                .put("request_id", requestId));
                done(sse);
            }
            case TurnEvent.Done d -> done(sse);
            // the design has no approval step: a held call shows as a tool call waiting, and the pause ends the stream
            case TurnEvent.ApprovalRequired held -> {
                ObjectNode d = data().put("tool_name", held.name());
                d.set("arguments", held.arguments());
                sse.sendAsIs("tool_call", d.put("status", "awaiting_approval").put("call_id", held.callId()));
            }
            case TurnEvent.AwaitingApproval paused -> done(sse);
        }
    }

    private void delta(SseWriter sse, String text) {
        accumulated.append(text);
        sse.sendAsIs("response_delta", data().put("delta", text).put("accumulated", accumulated.toString()));
    }

    private void done(SseWriter sse) {
        ObjectNode d = data().put("final_output", accumulated.toString());
        d.set("tools_called", toolsCalled.deepCopy());
        sse.sendAsIs(
                "done",
                d.put("success", !failed).put("conversation_id", conversationId).put("request_id", requestId));
    }

    private static ObjectNode data() {
        return Json.MAPPER.createObjectNode();
    }
}
