package dev.baton.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.runtime.session.Sessions;
import java.io.IOException;
import java.util.List;

/** JSON shapes of the API's resources (DESIGN §5). Core records carry no wire annotations; mapping is here. */
public final class Views {

    private Views() {}

    public static ObjectNode session(Session s) {
        ObjectNode n = WireJson.MAPPER
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

    /** A page of a session's messages: {@code {messages: [...]}}, each with its tool calls. */
    public static ObjectNode messages(Sessions.MessagePage page) {
        ObjectNode out = WireJson.MAPPER.createObjectNode();
        ArrayNode list = out.putArray("messages");
        page.messages().forEach(m -> list.add(message(m, page.toolCallsOf(m))));
        return out;
    }

    /** A session just completed: {@code {id, state, endedAt}}. */
    public static ObjectNode completed(Session done) {
        return WireJson.MAPPER
                .createObjectNode()
                .put("id", done.id())
                .put("state", done.state().wireName())
                .put("endedAt", done.endedAt().toString());
    }

    public static ObjectNode message(Message m, List<ToolCallRecord> toolCalls) {
        ObjectNode n = WireJson.MAPPER
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

    public static ObjectNode toolCall(ToolCallRecord c) {
        ObjectNode n = WireJson.MAPPER
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

    /**
     * A held tool call and what became of it: {@code callId} (for the approvals endpoint), {@code toolCallId} (the
     * model's, as in tool_call events), {@code name}, {@code arguments} (the model's), {@code reason}, {@code status},
     * {@code createdAt}, {@code expiresAt}, and once decided {@code decidedAt}, {@code decidedBy},
     * {@code decidedArguments} (when edited) and {@code comment}.
     */
    public static ObjectNode approval(ToolApproval a) {
        ObjectNode n = WireJson.MAPPER
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

    /** Stored JSON text back as JSON; anything that does not parse (a model's broken arguments) as a string. */
    public static JsonNode parseOrText(String text) {
        if (text == null) return WireJson.MAPPER.nullNode();
        try {
            return WireJson.MAPPER.readTree(text);
        } catch (IOException e) {
            return WireJson.MAPPER.getNodeFactory().textNode(text);
        }
    }
}
