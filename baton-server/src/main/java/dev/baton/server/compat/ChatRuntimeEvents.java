package dev.baton.server.compat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.server.http.Json;
import dev.baton.server.http.SseTurnListener;
import dev.baton.server.http.SseWriter;

/**
 * The chat runtime's SSE wire (design 001): every event's data carries its {@code type} — {@code chunk {content}},
 * {@code tool_call {toolCall: {id, name, args}}}, {@code tool_result {toolResult: {id, result}}}, {@code done {meta:
 * {model, tokens, latencyMs}}} and {@code error {error}} (Baton adds {@code code}: the turn's error code). The design
 * has no reasoning and no approval events: reasoning is not sent, and a turn paused for approval ends with a
 * {@code done} whose {@code meta.awaitingApproval} lists the held calls, decided through {@code POST
 * /v1/sessions/{id}/approvals/{callId}}.
 */
final class ChatRuntimeEvents implements SseTurnListener.Encoder {

    @Override
    public void send(SseWriter sse, TurnEvent event) {
        switch (event) {
            case TurnEvent.Started started -> {}
            case TurnEvent.Thinking thinking -> {}
            // this wire has no such event: the tool's result tells the model, which tells the user
            case TurnEvent.ConnectRequired connect -> {}
            case TurnEvent.Chunk chunk -> sse.send("chunk", data().put("content", chunk.content()));
            case TurnEvent.Blocked blocked -> sse.send("chunk", data().put("content", blocked.response()));
            case TurnEvent.ToolCallStarted call -> {
                ObjectNode toolCall = data().put("id", call.id()).put("name", call.name());
                toolCall.set("args", call.arguments());
                sse.send("tool_call", wrap("toolCall", toolCall));
            }
            case TurnEvent.ToolCallFinished call -> {
                ObjectNode toolResult = data().put("id", call.id());
                if (call.ok()) toolResult.set("result", call.result());
                else toolResult.put("error", call.error());
                sse.send("tool_result", wrap("toolResult", toolResult));
            }
            case TurnEvent.Done done ->
                sse.send("done", wrap("meta", meta(done.model(), done.usage(), done.latencyMs())));
            case TurnEvent.Failed failed ->
                sse.send("error", data().put("error", failed.message()).put("code", failed.code()));
            case TurnEvent.ApprovalRequired held -> {}
            case TurnEvent.AwaitingApproval paused -> {
                ObjectNode meta = meta(paused.model(), paused.usage(), paused.latencyMs());
                ArrayNode calls = meta.putArray("awaitingApproval");
                for (TurnEvent.ApprovalRequired call : paused.pending()) {
                    ObjectNode c = calls.addObject()
                            .put("callId", call.callId())
                            .put("name", call.name())
                            .put("reason", call.reason())
                            .put("expiresAt", call.expiresAt().toString());
                    c.set("args", call.arguments());
                }
                sse.send("done", wrap("meta", meta));
            }
        }
    }

    /** The design's {@code meta}: the model, the turn's tokens (input + output) and its latency. */
    private static ObjectNode meta(String model, TurnEvent.Usage usage, long latencyMs) {
        long tokens = usage == null ? 0 : usage.inputTokens() + usage.outputTokens();
        return data().put("model", model).put("tokens", tokens).put("latencyMs", latencyMs);
    }

    private static ObjectNode wrap(String field, ObjectNode value) {
        ObjectNode d = data();
        d.set(field, value);
        return d;
    }

    private static ObjectNode data() {
        return Json.MAPPER.createObjectNode();
    }
}
