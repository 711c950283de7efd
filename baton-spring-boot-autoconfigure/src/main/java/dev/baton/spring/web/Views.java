package dev.baton.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.approval.ToolApproval;
import java.io.IOException;
import java.util.List;

/**
 * The JSON shapes of the API's resources and of each turn event, as {@code baton serve} writes them (DESIGN §5): the
 * same fields, names and order, so that one client works against both.
 */
final class Views {
    private Views() {}

    static ObjectNode session(Session s) {
        ObjectNode n = ApiJson.MAPPER
                .createObjectNode()
                .put("id", s.id())
                .put("agentId", s.agentId())
                .put("state", s.state().wireName())
                .put("startedAt", s.startedAt().toString());
        if (s.assignmentId() != null) n.put("assignmentId", s.assignmentId());
        n.put("endedAt", s.endedAt() == null ? null : s.endedAt().toString());
        n.put("messageCount", s.messageCount());
        if (s.endReason() != null) n.put("endReason", s.endReason());
        return n;
    }

    static ObjectNode message(Message m, List<ToolCallRecord> toolCalls) {
        ObjectNode n = ApiJson.MAPPER
                .createObjectNode()
                .put("id", m.id())
                .put("seq", m.seq())
                .put("role", m.role().wireName())
                .put("content", m.status() == MessageStatus.BLOCKED ? "[blocked]" : m.content())
                .put("status", m.status().wireName())
                .put("createdAt", m.createdAt().toString());
        if (m.model() != null) n.put("model", m.model());
        if (!toolCalls.isEmpty()) {
            ArrayNode calls = n.putArray("toolCalls");
            toolCalls.forEach(c -> calls.add(toolCall(c)));
        }
        return n;
    }

    static ObjectNode toolCall(ToolCallRecord c) {
        ObjectNode n = ApiJson.MAPPER
                .createObjectNode()
                .put("id", c.id())
                .put("name", c.toolName())
                .put("state", c.state().wireName())
                .put("durationMs", c.durationMs());
        n.set("arguments", parseOrText(c.toolArgs()));
        if (c.toolResult() != null) n.set("result", parseOrText(c.toolResult()));
        if (c.errorMessage() != null) n.put("error", c.errorMessage());
        return n;
    }

    static ObjectNode approval(ToolApproval a) {
        ObjectNode n = ApiJson.MAPPER
                .createObjectNode()
                .put("callId", a.callId())
                .put("toolCallId", a.toolCallId())
                .put("name", a.toolName());
        n.set("arguments", parseOrText(a.arguments()));
        n.put("summary", a.summary());
        n.put("reason", a.reason())
                .put("status", a.status().wireName())
                .put("createdAt", a.createdAt().toString())
                .put("expiresAt", a.expiresAt().toString());
        if (a.decidedAt() != null) n.put("decidedAt", a.decidedAt().toString());
        if (a.decidedBy() != null) n.put("decidedBy", a.decidedBy());
        if (a.decidedArguments() != null) n.set("decidedArguments", parseOrText(a.decidedArguments()));
        if (a.comment() != null) n.put("comment", a.comment());
        return n;
    }

    /** The answer to a message sent as JSON: the turn's outcome, or the pause for approval. */
    static ObjectNode messageResponse(TurnOutcome o) {
        if (o.awaitingApproval().isPresent()) {
            ObjectNode n = awaitingApproval(
                    ApiJson.MAPPER.createObjectNode(), o.awaitingApproval().orElseThrow());
            n.put("answer", o.answer());
            ArrayNode calls = n.putArray("toolCalls");
            o.toolCalls().forEach(c -> calls.add(toolCall(c)));
            return n;
        }
        ObjectNode n = ApiJson.MAPPER
                .createObjectNode()
                .put("state", "completed")
                .put("messageId", o.assistantMessage().id())
                .put("answer", o.assistantMessage().content());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(toolCall(c)));
        n.set("usage", usage(o.usage()));
        n.put("model", o.model());
        if (o.terminal() instanceof TurnEvent.Done done) n.put("stopReason", done.stopReason());
        return n;
    }

    /** One SSE event: its name and its data (which repeats the name as {@code "type"}, first). */
    record Rendered(String type, ObjectNode data) {}

    static Rendered render(TurnEvent event) {
        ObjectNode d = ApiJson.MAPPER.createObjectNode();
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
            case TurnEvent.ConnectRequired c -> {
                d.put("toolCallId", c.toolCallId()).put("server", c.server()).put("connectUrl", c.connectUrl());
                yield "connect_required";
            }
            case TurnEvent.ApprovalRequired a -> {
                approvalRequired(d, a);
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
                if (f.retryAfter() != null) d.put("retryAfter", Statuses.retryAfterSeconds(f.retryAfter()));
                yield "error";
            }
        };
        ObjectNode payload = ApiJson.MAPPER.createObjectNode().put("type", type);
        payload.setAll(d);
        return new Rendered(type, payload);
    }

    private static ObjectNode approvalRequired(ObjectNode d, TurnEvent.ApprovalRequired a) {
        d.put("callId", a.callId()).put("toolCallId", a.toolCallId()).put("name", a.name());
        d.set("arguments", a.arguments());
        d.put("summary", a.summary());
        return d.put("reason", a.reason()).put("expiresAt", a.expiresAt().toString());
    }

    private static ObjectNode awaitingApproval(ObjectNode d, TurnEvent.AwaitingApproval paused) {
        d.put("state", "awaiting_approval").put("turnId", paused.turnId());
        d.putNull("messageId");
        d.put("model", paused.model());
        d.set("usage", usage(paused.usage()));
        d.put("latencyMs", paused.latencyMs());
        ArrayNode tools = d.putArray("toolsCalled");
        paused.toolsCalled().forEach(tools::add);
        ArrayNode pending = d.putArray("pendingApprovals");
        paused.pending().forEach(a -> pending.add(approvalRequired(ApiJson.MAPPER.createObjectNode(), a)));
        return d;
    }

    private static ObjectNode usage(TurnEvent.Usage u) {
        return ApiJson.MAPPER
                .createObjectNode()
                .put("inputTokens", u.inputTokens())
                .put("outputTokens", u.outputTokens())
                .put("cachedInputTokens", u.cachedInputTokens())
                .put("costUsd", u.costUsd());
    }

    private static JsonNode parseOrText(String text) {
        if (text == null) return ApiJson.MAPPER.nullNode();
        try {
            return ApiJson.MAPPER.readTree(text);
        } catch (IOException e) {
            return ApiJson.MAPPER.getNodeFactory().textNode(text);
        }
    }
}
