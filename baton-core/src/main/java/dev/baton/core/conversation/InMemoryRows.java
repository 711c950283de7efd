package dev.baton.core.conversation;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * What {@link InMemoryConversationStore} does to rows on their way in, as the JDBC store does: refuse rows that would
 * land in another user's or session's data, and keep instants to the microsecond as the databases do.
 */
final class InMemoryRows {
    private InMemoryRows() {}

    /** Refuses audit and extraction rows that would land on another message or session. */
    static void checkBelongsToMessage(Message message, List<AuditRecord> auditRows, List<ExtractionRecord> found) {
        for (AuditRecord a : auditRows) {
            if (!a.messageId().equals(message.id()) || !a.sessionId().equals(message.sessionId())) {
                throw new IllegalArgumentException("audit record " + a.id() + " belongs to another message");
            }
        }
        for (ExtractionRecord x : found) {
            if (!x.sessionId().equals(message.sessionId())) {
                throw new IllegalArgumentException("extraction " + x.id() + " belongs to another session");
            }
        }
    }

    /** Refuses a turn whose rows would land in another user's or another session's data. */
    static void checkBelongsToTurn(String userId, TurnRecord turn) {
        Message answer = turn.assistantMessage();
        if (answer.role() != MessageRole.ASSISTANT) {
            throw new IllegalArgumentException("a turn ends with an assistant message, got " + answer.role());
        }
        if (!answer.userId().equals(userId)) {
            throw new IllegalArgumentException("assistant message belongs to another user");
        }
        for (ToolCallRecord t : turn.toolCalls()) {
            if (!t.sessionId().equals(answer.sessionId())) {
                throw new IllegalArgumentException("tool call " + t.id() + " belongs to another session");
            }
            if (t.messageId() != null && !t.messageId().equals(answer.id())) {
                throw new IllegalArgumentException("tool call " + t.id() + " belongs to another message");
            }
        }
        for (UsageRecord u : turn.usage()) {
            if (!u.userId().equals(userId) || !u.sessionId().equals(answer.sessionId())) {
                throw new IllegalArgumentException("usage " + u.id() + " belongs to another user or session");
            }
        }
    }

    static ToolCallRecord withMessageId(ToolCallRecord t, String messageId) {
        return new ToolCallRecord(
                t.id(),
                t.sessionId(),
                messageId,
                t.toolName(),
                t.toolArgs(),
                t.toolResult(),
                t.state(),
                t.errorMessage(),
                t.startedAt(),
                t.completedAt(),
                t.durationMs());
    }

    static Session truncated(Session s) {
        return new Session(
                s.id(),
                s.tenantId(),
                s.userId(),
                s.agentId(),
                s.assignmentId(),
                s.state(),
                truncate(s.startedAt()),
                truncate(s.endedAt()),
                truncate(s.lastActivityAt()),
                s.messageCount(),
                s.toolCallCount(),
                s.endReason());
    }

    static ToolCallRecord truncated(ToolCallRecord t) {
        return new ToolCallRecord(
                t.id(),
                t.sessionId(),
                t.messageId(),
                t.toolName(),
                t.toolArgs(),
                t.toolResult(),
                t.state(),
                t.errorMessage(),
                truncate(t.startedAt()),
                truncate(t.completedAt()),
                t.durationMs());
    }

    static UsageRecord truncated(UsageRecord u) {
        return new UsageRecord(
                u.id(),
                u.tenantId(),
                u.userId(),
                u.sessionId(),
                u.messageId(),
                u.provider(),
                u.model(),
                u.inputTokens(),
                u.outputTokens(),
                u.cachedInputTokens(),
                u.costUsd(),
                u.latencyMs(),
                truncate(u.createdAt()));
    }

    /** The instant as a database gives it back. */
    static Instant truncate(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS);
    }
}
