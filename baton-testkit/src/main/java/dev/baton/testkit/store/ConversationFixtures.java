package dev.baton.testkit.store;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.id.Ids;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** Builders for the records the store contracts write; instants carry nanoseconds to prove truncation. */
public final class ConversationFixtures {
    public static final Instant T0 = Instant.parse("2025-03-01T10:15:30.123456789Z");

    private ConversationFixtures() {}

    public static String newUser() {
        return "user-" + Ids.newId();
    }

    public static Session session(String userId, String agentId, Instant startedAt) {
        return Session.start(Ids.newId(), "tenant-1", userId, agentId, null, startedAt);
    }

    public static Message userMessage(Session s, String content, Instant at) {
        return new Message(
                Ids.newId(), s.id(), s.userId(), 0, MessageRole.USER, content, MessageStatus.COMPLETE, null, at);
    }

    public static Message assistantMessage(Session s, String content, Instant at) {
        return new Message(
                Ids.newId(),
                s.id(),
                s.userId(),
                0,
                MessageRole.ASSISTANT,
                content,
                MessageStatus.COMPLETE,
                "simulator:default",
                at);
    }

    public static ToolCallRecord toolCall(String id, Message answer, String toolName, Instant at) {
        return new ToolCallRecord(
                id,
                answer.sessionId(),
                answer.id(),
                toolName,
                "{\"q\":1}",
                "{\"ok\":true}",
                ToolCallState.SUCCEEDED,
                null,
                at,
                at.plusMillis(12),
                12);
    }

    /** A finished call of a turn still running: its answer is not stored yet, so it names no message. */
    public static ToolCallRecord unlinkedToolCall(Session s, String toolName, Instant at) {
        return new ToolCallRecord(
                Ids.newId(),
                s.id(),
                null,
                toolName,
                "{\"q\":\"caf\u00e9 \u2615\"}",
                "{\"ok\":true}",
                ToolCallState.SUCCEEDED,
                null,
                at,
                at.plusMillis(7),
                7);
    }

    public static UsageRecord usage(Message answer, BigDecimal cost, Instant at) {
        return new UsageRecord(
                Ids.newId(),
                "tenant-1",
                answer.userId(),
                answer.sessionId(),
                answer.id(),
                "simulator",
                "default",
                120,
                30,
                40,
                cost,
                250,
                at);
    }

    public static TurnRecord turn(Message answer, List<ToolCallRecord> calls, List<UsageRecord> usage) {
        return new TurnRecord(answer, calls, usage);
    }
}
