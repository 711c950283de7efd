package dev.baton.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;

/** Turns each {@link TurnEvent} into the SSE event of DESIGN §5 (name and data). */
public final class SseEvents {

    private SseEvents() {}

    /** One event as the wire carries it: its name, and its data (which repeats the name as {@code "type"}). */
    public record Rendered(String type, ObjectNode data) {
        /** The data as JSON text. */
        public String json() {
            return data.toString();
        }
    }

    /** The SSE event of a turn event: name and data, {@code "type"} first. */
    public static Rendered render(TurnEvent event) {
        ObjectNode d = WireJson.MAPPER.createObjectNode();
        String type = switch (event) {
            case TurnEvent.Started s -> {
                d.put("turnId", s.turnId()).put("sessionId", s.sessionId()).put("requestId", s.requestId());
                // a run that goes on from a stored state: the answer so far replaces what a client assembled
                if (s.answerSoFar() != null) d.put("answerSoFar", s.answerSoFar());
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
            case TurnEvent.ConnectRequired c -> {
                d.put("toolCallId", c.toolCallId()).put("server", c.server()).put("connectUrl", c.connectUrl());
                yield "connect_required";
            }
            case TurnEvent.ApprovalRequired a -> {
                approval(d, a);
                yield "approval_required";
            }
            case TurnEvent.AwaitingApproval paused -> {
                awaitingApproval(d, paused);
                yield "done";
            }
            case TurnEvent.Done done -> {
                d.put("state", "completed");
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
                if (f.retryAfter() != null) d.put("retryAfter", ErrorStatuses.retryAfterSeconds(f.retryAfter()));
                yield "error";
            }
        };
        ObjectNode payload = WireJson.MAPPER.createObjectNode().put("type", type);
        payload.setAll(d);
        return new Rendered(type, payload);
    }

    /** The fields of an {@code approval_required} event (also one entry of a paused turn's pending approvals). */
    public static ObjectNode approval(ObjectNode d, TurnEvent.ApprovalRequired a) {
        d.put("callId", a.callId()).put("toolCallId", a.toolCallId()).put("name", a.name());
        d.set("arguments", a.arguments());
        d.put("summary", a.summary());
        return d.put("reason", a.reason()).put("expiresAt", a.expiresAt().toString());
    }

    /** The {@code done} event of a turn paused for approval; JSON answers carry the same fields. */
    public static ObjectNode awaitingApproval(ObjectNode d, TurnEvent.AwaitingApproval paused) {
        d.put("state", "awaiting_approval").put("turnId", paused.turnId());
        d.putNull("messageId");
        d.put("model", paused.model());
        d.set("usage", usage(paused.usage()));
        d.put("latencyMs", paused.latencyMs());
        ArrayNode tools = d.putArray("toolsCalled");
        paused.toolsCalled().forEach(tools::add);
        ArrayNode pending = d.putArray("pendingApprovals");
        paused.pending().forEach(a -> pending.add(approval(WireJson.MAPPER.createObjectNode(), a)));
        return d;
    }

    public static ObjectNode usage(TurnEvent.Usage u) {
        return WireJson.MAPPER
                .createObjectNode()
                .put("inputTokens", u.inputTokens())
                .put("outputTokens", u.outputTokens())
                .put("cachedInputTokens", u.cachedInputTokens())
                .put("costUsd", u.costUsd());
    }
}
