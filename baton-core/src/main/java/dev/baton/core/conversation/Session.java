package dev.baton.core.conversation;

import java.time.Instant;
import java.util.Objects;

/**
 * One user's conversation with one agent.
 *
 * @param endReason why a completed session ended ("user", "max_messages", "max_session_duration", "inactivity");
 *     null while it is active
 */
public record Session(
        String id,
        String tenantId,
        String userId,
        String agentId,
        String assignmentId,
        SessionState state,
        Instant startedAt,
        Instant endedAt,
        Instant lastActivityAt,
        int messageCount,
        int toolCallCount,
        String endReason) {

    /** A session whose end, if any, has no recorded reason. */
    public Session(
            String id,
            String tenantId,
            String userId,
            String agentId,
            String assignmentId,
            SessionState state,
            Instant startedAt,
            Instant endedAt,
            Instant lastActivityAt,
            int messageCount,
            int toolCallCount) {
        this(
                id,
                tenantId,
                userId,
                agentId,
                assignmentId,
                state,
                startedAt,
                endedAt,
                lastActivityAt,
                messageCount,
                toolCallCount,
                null);
    }

    public Session {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(startedAt, "startedAt");
        lastActivityAt = lastActivityAt == null ? startedAt : lastActivityAt;
    }

    public static Session start(
            String id, String tenantId, String userId, String agentId, String assignmentId, Instant now) {
        return new Session(id, tenantId, userId, agentId, assignmentId, SessionState.ACTIVE, now, null, now, 0, 0);
    }

    public boolean isActive() {
        return state == SessionState.ACTIVE;
    }
}
