package dev.baton.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;

/** Turns each {@link TurnEvent} into the SSE event of DESIGN §5 (name and data). */
public final class SseEvents {

    private SseEvents() {}

    public static void send(SseWriter sse, TurnEvent event) {
        ObjectNode d = Json.MAPPER.createObjectNode();
        String type = switch (event) {
            case TurnEvent.Started s -> {
                d.put("turnId", s.turnId()).put("sessionId", s.sessionId()).put("requestId", s.requestId());
                yield "turn.started";
            }
            case TurnEvent.Chunk c -> {
                d.put("content", c.content());
                yield "chunk";
            }
            case TurnEvent.Thinking t -> {
                d.put("content", t.content());
                yield "thinking";
            }
            case TurnEvent.ToolCallStarted t -> {
                d.put("id", t.id()).put("name", t.name()).set("arguments", t.arguments());
                yield "tool_call";
            }
            case TurnEvent.ToolCallFinished t -> {
                d.put("id", t.id()).put("name", t.name()).put("ok", t.ok());
                if (t.ok()) d.set("result", t.result());
                else d.put("error", t.error());
                d.put("durationMs", t.durationMs());
                yield "tool_result";
            }
            case TurnEvent.Blocked b -> {
                d.put("response", b.response());
                yield "blocked";
            }
            case TurnEvent.Done done -> {
                d.put("messageId", done.messageId()).put("model", done.model());
                d.set("usage", usage(done.usage()));
                d.put("latencyMs", done.latencyMs());
                ArrayNode tools = d.putArray("toolsCalled");
                done.toolsCalled().forEach(tools::add);
                d.put("stopReason", done.stopReason());
                yield "done";
            }
            case TurnEvent.Failed f -> {
                d.put("code", f.code()).put("message", f.message()).put("retryable", f.retryable());
                if (f.retryAfter() != null) d.put("retryAfter", ErrorResponses.retryAfterSeconds(f.retryAfter()));
                yield "error";
            }
        };
        sse.send(type, d);
    }

    public static ObjectNode usage(TurnEvent.Usage u) {
        return Json.MAPPER
                .createObjectNode()
                .put("inputTokens", u.inputTokens())
                .put("outputTokens", u.outputTokens())
                .put("cachedInputTokens", u.cachedInputTokens())
                .put("costUsd", u.costUsd());
    }
}
