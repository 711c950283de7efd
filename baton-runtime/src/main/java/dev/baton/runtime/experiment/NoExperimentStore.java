package dev.baton.runtime.experiment;

import dev.baton.runtime.RefusalException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A runtime without an experiment store: nothing is ever routed, and creating an experiment is refused. */
final class NoExperimentStore implements ExperimentStore {
    @Override
    public List<Experiment> experiments() {
        return List.of();
    }

    @Override
    public Optional<Instant> changedAt(String id) {
        return Optional.empty();
    }

    @Override
    public Optional<Experiment> experiment(String id) {
        return Optional.empty();
    }

    @Override
    public boolean create(Experiment experiment, OperatorAuditRecord audit) {
        throw RefusalException.invalidInput(
                "this runtime keeps no experiments: it was built without an experiment store");
    }

    @Override
    public boolean replace(Experiment changed, long expectedVersion, OperatorAuditRecord audit) {
        return false;
    }

    @Override
    public void recordSession(SessionArm arm) {}

    @Override
    public Optional<SessionArm> sessionArm(String sessionId) {
        return Optional.empty();
    }

    @Override
    public void recordTurn(SessionArm arm, String turnId, String status, long latencyMs, Instant at) {}

    @Override
    public List<String> recentTurnStatuses(
            String experimentId, String tenantId, String userId, Instant since, int limit) {
        return List.of();
    }

    @Override
    public void recordEvalRun(EvalRun run, OperatorAuditRecord audit) {}

    @Override
    public List<ArmMetrics> metrics(Experiment experiment, Instant since) {
        return List.of();
    }

    @Override
    public List<OperatorAuditRecord> auditTrail(String subject, int limit) {
        return List.of();
    }
}
