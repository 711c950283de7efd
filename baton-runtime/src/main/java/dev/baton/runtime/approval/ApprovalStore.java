package dev.baton.runtime.approval;

import dev.baton.core.conversation.ConversationStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
     * Whether {@code conversations} sees this store's paused turns, so its
     * {@link ConversationStore#appendUserMessageUnlessPaused} refuses a message while one waits: then a new message's
     * turn does not look for a paused turn first (see {@link Approvals#supersedesOnAppend}). False unless both keep
     * them in one database.
     */
    default boolean pausedTurnsSeenBy(ConversationStore conversations) {
        return false;
    }

    /** How long {@link #decide(String, Decision, Instant)} claims a turn for. */
    Duration DEFAULT_CLAIM = Duration.ofMinutes(10);

    /**
     * Decides a pending call, unless it was decided, expired (by {@code now}) or its turn went on or ended meanwhile.
     * The decision that leaves no call of its turn pending also claims the turn ({@link PausedTurn.Status#RESUMED})
     * under a new claim id until {@code claimUntil}: its caller must go on with it, and {@link #finish} it at its end.
     */
    Decided decide(String callId, Decision decision, Instant now, Instant claimUntil);

    /** {@link #decide(String, Decision, Instant, Instant)} claiming the turn for {@link #DEFAULT_CLAIM}. */
    default Decided decide(String callId, Decision decision, Instant now) {
        return decide(callId, decision, now, now.plus(DEFAULT_CLAIM));
    }

    /** The user's turn by its id, whatever became of it; empty when there is none of theirs. */
    Optional<PausedTurn> turn(String tenantId, String userId, String turnId);

    /**
     * Takes over a turn whose claim ran out by {@code now} (the instance going on with it died) under a new claim id
     * until {@code claimUntil}; empty when it is not claimed, its claim still holds, or another took it over first.
     * Of two instances taking it over at once, exactly one succeeds.
     *
     * @return the turn with its decided calls, and which approved calls had started to run
     */
    Optional<Resumable> reclaim(String turnId, Instant now, Instant claimUntil);

    /**
     * Turns claimed by an instance that died ({@link PausedTurn#abandonedAt}) which nobody took over by their calls'
     * expiry either: {@code now} is past both their claim and their expiry. Oldest claim first, at most {@code limit}.
     */
    List<PausedTurn> abandoned(Instant now, int limit);

    /** Notes that the turn's approved calls {@code callIds} are about to run (see {@link Resumable#runStarted}). */
    void runStarting(String turnId, List<String> callIds, Instant now);

    /** The claim {@code claimId} went on to the end of its turn: it needs no taking over. */
    void finish(String turnId, String claimId);

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

    /**
     * Recorded, and it was the last: the turn is claimed ({@link PausedTurn#claimId()}); go on with it.
     *
     * @param runStarted the approved calls an earlier claim of the turn started to run (empty for a first claim)
     */
    record Resumable(PausedTurn turn, List<ToolApproval> calls, Set<String> runStarted) implements Decided {
        public Resumable {
            calls = List.copyOf(calls);
            runStarted = Set.copyOf(runStarted);
        }

        public Resumable(PausedTurn turn, List<ToolApproval> calls) {
            this(turn, calls, Set.of());
        }
    }

    /** A turn closed without going on, with all its calls as they ended. */
    record Closed(PausedTurn turn, List<ToolApproval> calls) {}
}
