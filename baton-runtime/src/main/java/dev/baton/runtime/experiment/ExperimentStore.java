package dev.baton.runtime.experiment;

import dev.baton.core.conversation.InMemoryConversationStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where experiments live, shared by every instance (baton-store-jdbc's on SQLite or PostgreSQL; {@link #inMemory}
 * for one process): the definitions with their weights, the arm of each session, each turn's latency and status,
 * eval runs and the operators' audit trail. A change and its audit record are written in one transaction.
 */
public interface ExperimentStore {

    /** Every experiment, in the order they were created. */
    List<Experiment> experiments();

    Optional<Experiment> experiment(String id);

    /**
     * When the experiment's weights last changed: created, an operator's change or a rollback. Triggers judge only
     * what came after it, so an arm an operator raises again is not rolled back for turns of its earlier run.
     */
    Optional<Instant> changedAt(String id);

    /** Stores a new experiment; false (and nothing written) when its id is taken. */
    boolean create(Experiment experiment, OperatorAuditRecord audit);

    /**
     * Replaces an experiment's definition if it is still at {@code expectedVersion}: of two instances changing it at
     * once, one wins and the other gets false (nothing written).
     */
    boolean replace(Experiment changed, long expectedVersion, OperatorAuditRecord audit);

    /** Records the arm a session was routed to. */
    void recordSession(SessionArm arm);

    /** The arm a session was routed to; empty for a session no experiment routed. */
    Optional<SessionArm> sessionArm(String sessionId);

    /**
     * Records a finished turn of a session in an experiment.
     *
     * @param status {@code ok}, {@code awaiting_approval} or the error code
     */
    void recordTurn(SessionArm arm, String turnId, String status, long latencyMs, Instant at);

    /**
     * The statuses of a user's latest turns in an experiment since {@code since}, newest first, at most
     * {@code limit}; turns of fallback sessions are left out.
     */
    List<String> recentTurnStatuses(String experimentId, String tenantId, String userId, Instant since, int limit);

    /** Stores an eval run of an arm, with its audit record. */
    void recordEvalRun(EvalRun run, OperatorAuditRecord audit);

    /**
     * Each arm's metrics since {@code since}, in the experiment's arm order, then the fallback's when the experiment
     * has one: a fixed number of aggregate queries, whatever the traffic.
     */
    List<ArmMetrics> metrics(Experiment experiment, Instant since);

    /** The newest {@code limit} audit records of a subject, newest first. */
    List<OperatorAuditRecord> auditTrail(String subject, int limit);

    /**
     * Experiments kept in this process only, for a runtime without a database: the same compare-and-set on a
     * definition's version as a shared store, but nothing is shared with another instance and a restart forgets
     * every experiment, arm and audit record.
     *
     * @param conversations where the experiment's sessions live: an arm's cost and tool calls are read from their
     *     usage rows and tool calls
     */
    static ExperimentStore inMemory(InMemoryConversationStore conversations) {
        return new InMemoryExperimentStore(conversations);
    }

    /** No store: no experiments, and creating one is refused (a runtime built without a database). */
    static ExperimentStore none() {
        return new NoExperimentStore();
    }
}
