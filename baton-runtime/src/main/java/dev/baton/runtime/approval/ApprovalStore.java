package dev.baton.runtime.approval;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where paused turns and their held tool calls are kept, so a decision can arrive at any instance. Every change of
 * state is conditional and atomic: of two instances deciding the same call, or deciding it while the sweep expires
 * it, exactly one succeeds. The JDBC store implements it for SQLite and PostgreSQL; {@link #inMemory()} keeps them in
 * this process.
 */
public interface ApprovalStore {

    /** A store in this process's memory: paused turns do not survive a restart. */
    static ApprovalStore inMemory() {
        return new InMemoryApprovalStore();
    }

    /** Stores a paused turn and its held calls (all {@link ApprovalStatus#PENDING}), atomically. */
    void pause(PausedTurn turn, List<ToolApproval> approvals);

    /** The user's held call by its id, in their session of their tenant; empty when there is none. */
    Optional<ToolApproval> find(String tenantId, String userId, String sessionId, String callId);

    /** The pending calls of the user's session, in the order they were held. */
    List<ToolApproval> pending(String tenantId, String userId, String sessionId);

    /** The user's session's paused turn, when one waits. */
    Optional<PausedTurn> pausedTurn(String tenantId, String userId, String sessionId);

    /**
     * Decides a pending call, unless it was decided, expired (by {@code now}) or its turn went on or ended meanwhile.
     * The decision that leaves no call of its turn pending also claims the turn ({@link PausedTurn.Status#RESUMED}):
     * its caller must go on with it.
     */
    Decided decide(String callId, Decision decision, Instant now);

    /**
     * Ends a paused turn without going on: its pending calls take {@code status} ({@link ApprovalStatus#SUPERSEDED}
     * or {@link ApprovalStatus#EXPIRED}); empty when the turn was not paused any more.
     *
     * @param decidedBy the user whose message superseded the calls; null for expiry
     */
    Optional<Closed> close(String turnId, ApprovalStatus status, String decidedBy, String comment, Instant now);

    /** Paused turns whose calls expired by {@code now}, oldest first, at most {@code limit}. */
    List<PausedTurn> expired(Instant now, int limit);

    /** Every held call of a session of the tenant, whoever's, in the order they were held (administrators). */
    List<ToolApproval> sessionApprovals(String tenantId, String sessionId);

    /**
     * A user's decision.
     *
     * @param status {@link ApprovalStatus#APPROVED} or {@link ApprovalStatus#DENIED}
     * @param decidedBy the deciding user
     * @param arguments edited arguments (JSON text); null to keep the model's
     * @param comment the user's comment; may be null
     */
    record Decision(ApprovalStatus status, String decidedBy, String arguments, String comment) {
        public Decision {
            if (status != ApprovalStatus.APPROVED && status != ApprovalStatus.DENIED)
                throw new IllegalArgumentException("a user approves or denies, not " + status);
            Objects.requireNonNull(decidedBy, "decidedBy");
        }
    }

    /** How a decision came out. */
    sealed interface Decided {}

    /** The call was not pending (decided, superseded, expired, or past its expiry): nothing changed. */
    record NotPending(ToolApproval current) implements Decided {}

    /** Recorded; other calls of the same turn still wait. */
    record Waiting(ToolApproval decided, List<ToolApproval> stillPending) implements Decided {}

    /** Recorded, and it was the last: the turn is claimed; go on with it. */
    record Resumable(PausedTurn turn, List<ToolApproval> calls) implements Decided {}

    /** A turn closed without going on, with all its calls as they ended. */
    record Closed(PausedTurn turn, List<ToolApproval> calls) {}
}
