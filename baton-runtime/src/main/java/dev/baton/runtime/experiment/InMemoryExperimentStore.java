package dev.baton.runtime.experiment;

import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.UsageRecord;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Experiments kept in this process, under one lock: a change is the same compare-and-set on the version as the
 * database's, written with its audit record at once. An arm's cost and tool calls are read from the conversation
 * store its sessions live in, as the database joins them.
 */
final class InMemoryExperimentStore implements ExperimentStore {
    /** Turn statuses that are not errors. */
    /** Tool call states that count as a tool error (cancelled and deduplicated calls do not). */
    private static final Set<ToolCallState> TOOL_ERRORS = Set.of(
            ToolCallState.FAILED, ToolCallState.INVALID_ARGUMENTS, ToolCallState.TIMED_OUT, ToolCallState.DENIED);

    private record Stored(Experiment experiment, Instant changedAt) {}

    private record Turn(SessionArm arm, String status, long latencyMs, Instant at) {}

    private final InMemoryConversationStore conversations;
    private final Object lock = new Object();
    private final Map<String, Stored> experiments = new LinkedHashMap<>();
    private final Map<String, SessionArm> sessions = new LinkedHashMap<>();
    private final Map<String, Turn> turns = new LinkedHashMap<>();
    private final List<EvalRun> evalRuns = new ArrayList<>();
    private final List<OperatorAuditRecord> audit = new ArrayList<>();

    InMemoryExperimentStore(InMemoryConversationStore conversations) {
        this.conversations = java.util.Objects.requireNonNull(conversations, "conversations");
    }

    @Override
    public List<Experiment> experiments() {
        synchronized (lock) {
            return experiments.values().stream().map(Stored::experiment).toList();
        }
    }

    @Override
    public Optional<Experiment> experiment(String id) {
        synchronized (lock) {
            return Optional.ofNullable(experiments.get(id)).map(Stored::experiment);
        }
    }

    @Override
    public Optional<Instant> changedAt(String id) {
        synchronized (lock) {
            return Optional.ofNullable(experiments.get(id)).map(Stored::changedAt);
        }
    }

    @Override
    public boolean create(Experiment experiment, OperatorAuditRecord record) {
        synchronized (lock) {
            if (experiments.containsKey(experiment.id())) return false;
            experiments.put(experiment.id(), new Stored(experiment, record.at()));
            audit.add(record);
            return true;
        }
    }

    @Override
    public boolean replace(Experiment changed, long expectedVersion, OperatorAuditRecord record) {
        synchronized (lock) {
            Stored current = experiments.get(changed.id());
            if (current == null || current.experiment().version() != expectedVersion) return false;
            experiments.put(changed.id(), new Stored(changed, record.at()));
            audit.add(record);
            return true;
        }
    }

    @Override
    public void recordSession(SessionArm arm) {
        synchronized (lock) {
            if (sessions.putIfAbsent(arm.sessionId(), arm) != null)
                throw new IllegalStateException("session " + arm.sessionId() + " already has an arm");
        }
    }

    @Override
    public Optional<SessionArm> sessionArm(String sessionId) {
        synchronized (lock) {
            return Optional.ofNullable(sessions.get(sessionId));
        }
    }

    @Override
    public void recordTurn(SessionArm arm, String turnId, String status, long latencyMs, Instant at) {
        synchronized (lock) {
            turns.putIfAbsent(turnId, new Turn(arm, status, latencyMs, at));
        }
    }

    @Override
    public List<String> recentTurnStatuses(
            String experimentId, String tenantId, String userId, Instant since, int limit) {
        synchronized (lock) {
            return turns.values().stream()
                    .filter(t -> t.arm().experimentId().equals(experimentId)
                            && t.arm().tenantId().equals(tenantId)
                            && t.arm().userId().equals(userId)
                            && !t.at().isBefore(since)
                            && !t.arm().arm().equals(Routing.FALLBACK_ARM))
                    .sorted(Comparator.comparing(Turn::at).reversed())
                    .limit(limit)
                    .map(Turn::status)
                    .toList();
        }
    }

    @Override
    public void recordEvalRun(EvalRun run, OperatorAuditRecord record) {
        synchronized (lock) {
            evalRuns.add(run);
            audit.add(record);
        }
    }

    @Override
    public List<ArmMetrics> metrics(Experiment e, Instant since) {
        List<String> arms = new ArrayList<>(e.arms().stream().map(Arm::name).toList());
        if (e.fallback() != null) arms.add(Routing.FALLBACK_ARM);
        Map<String, List<Long>> latencies = new HashMap<>();
        Map<String, Long> failed = new HashMap<>();
        Map<String, Set<String>> users = new HashMap<>();
        Map<String, List<String>> started = new HashMap<>();
        Map<String, EvalRun> latestEval = new HashMap<>();
        synchronized (lock) {
            for (Turn t : turns.values()) {
                if (!t.arm().experimentId().equals(e.id()) || t.at().isBefore(since)) continue;
                latencies.computeIfAbsent(t.arm().arm(), a -> new ArrayList<>()).add(t.latencyMs());
                if (!ArmMetrics.NOT_ERRORS.contains(t.status()))
                    failed.merge(t.arm().arm(), 1L, Long::sum);
                users.computeIfAbsent(t.arm().arm(), a -> new java.util.HashSet<>())
                        .add(t.arm().tenantId() + " " + t.arm().userId());
            }
            for (SessionArm s : sessions.values())
                if (s.experimentId().equals(e.id()) && !s.startedAt().isBefore(since))
                    started.computeIfAbsent(s.arm(), a -> new ArrayList<>()).add(s.sessionId());
            // of runs recorded at the same instant, the one recorded last
            for (EvalRun run : evalRuns)
                if (run.experimentId().equals(e.id()))
                    latestEval.merge(
                            run.arm(), run, (was, now) -> now.recordedAt().isBefore(was.recordedAt()) ? was : now);
        }
        // the conversation store has its own lock: read it outside this one
        List<ArmMetrics> out = new ArrayList<>();
        for (String arm : arms) {
            List<Long> sorted =
                    latencies.getOrDefault(arm, List.of()).stream().sorted().toList();
            List<String> sessionIds = started.getOrDefault(arm, List.of());
            BigDecimal cost = BigDecimal.ZERO;
            long toolCalls = 0;
            long failedToolCalls = 0;
            for (String sessionId : sessionIds) {
                for (UsageRecord u : conversations.usageRows(sessionId)) cost = cost.add(u.costUsd());
                for (ToolCallRecord call : conversations.toolCallRows(sessionId)) {
                    toolCalls++;
                    if (TOOL_ERRORS.contains(call.state())) failedToolCalls++;
                }
            }
            out.add(new ArmMetrics(
                    arm,
                    sorted.size(),
                    failed.getOrDefault(arm, 0L),
                    users.getOrDefault(arm, Set.of()).size(),
                    percentile(sorted, 0.50),
                    percentile(sorted, 0.95),
                    sessionIds.size(),
                    cost,
                    toolCalls,
                    failedToolCalls,
                    latestEval.get(arm)));
        }
        return out;
    }

    /** The nearest-rank percentile: the value at rank ceil(p * n) of the n latencies in order; 0 for none. */
    private static long percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) return 0;
        long rank = Math.max(1, (long) Math.ceil(p * sorted.size()));
        return sorted.get((int) rank - 1);
    }

    @Override
    public List<OperatorAuditRecord> auditTrail(String subject, int limit) {
        synchronized (lock) {
            return audit.stream()
                    .filter(r -> r.subject().equals(subject))
                    .sorted(Comparator.comparing(OperatorAuditRecord::at)
                            .thenComparing(OperatorAuditRecord::id)
                            .reversed())
                    .limit(limit)
                    .toList();
        }
    }
}
