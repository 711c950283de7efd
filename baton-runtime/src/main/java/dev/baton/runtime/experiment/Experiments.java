package dev.baton.runtime.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.session.Sessions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A/B experiments over agents: which arm a new session goes to, staged weight changes, eval runs attached
 * to arms, per-arm metrics side by side, and the rollback of an arm whose metrics break a trigger. Definitions live in
 * the {@link ExperimentStore}, shared by every instance; each instance re-reads them at most every
 * {@code refreshEvery}. Managing experiments needs {@value #ADMIN}; every change is audited.
 */
public final class Experiments {
    private static final Logger log = LoggerFactory.getLogger(Experiments.class);
    /** What reading and changing experiments needs. */
    public static final String ADMIN = "admin:experiments";
    /** How many audit entries a report shows. */
    static final int TRAIL = 50;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ExperimentStore store;
    private final AgentRegistry agents;
    private final FeatureFlags flags;
    private final ExperimentListener listener;
    private final Clock clock;
    private final SharedSnapshot<List<Experiment>> cached;

    public Experiments(
            ExperimentStore store,
            AgentRegistry agents,
            FeatureFlags flags,
            ExperimentListener listener,
            Clock clock,
            Duration refreshEvery) {
        this.store = Objects.requireNonNull(store, "store");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.flags = Objects.requireNonNull(flags, "flags");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.cached = new SharedSnapshot<>("experiments", store::experiments, List.of(), refreshEvery);
    }

    // ---- routing a new session

    /**
     * Where a new session with {@code requested} goes: unchanged unless an experiment is over that agent; else the
     * arm the caller falls in (the control when the experiment's flag is off for the caller), or the experiment's
     * fallback agent when the caller's latest turns in it all failed.
     */
    public Routing route(Principal caller, AgentDefinition requested) {
        Experiment e = experimentOver(requested.id());
        if (e == null) return Routing.direct(requested);
        if (e.fallback() != null && failing(e, caller)) {
            AgentDefinition fallback = agents.find(e.fallback().agentId()).orElse(null);
            if (fallback != null) return new Routing(fallback, e.id(), Routing.FALLBACK_ARM);
        }
        Arm arm = e.flag() == null || flags.enabled(e.flag(), caller)
                ? e.armAt(StickyHash.unit(caller.tenantId(), caller.userId(), e.id()))
                : e.control();
        return agents.find(arm.agentId())
                .map(agent -> new Routing(agent, e.id(), arm.name()))
                // an arm whose agent left the configuration: the session goes where it was asked to
                .orElseGet(() -> {
                    log.warn(
                            "experiment {}: arm {} names agent {}, which is not configured",
                            e.id(),
                            arm.name(),
                            arm.agentId());
                    return Routing.direct(requested);
                });
    }

    /** Records the arm of a session {@link #route} routed; a failure to record costs the metrics one session only. */
    public void started(Session session, Routing routing) {
        if (!routing.inExperiment()) return;
        try {
            store.recordSession(new SessionArm(
                    session.id(),
                    routing.experimentId(),
                    routing.arm(),
                    session.tenantId(),
                    session.userId(),
                    session.startedAt()));
        } catch (RuntimeException e) {
            log.warn(
                    "session {}: arm {} of experiment {} not recorded: {}",
                    session.id(),
                    routing.arm(),
                    routing.experimentId(),
                    e.toString());
            return;
        }
        listener.routed(routing.experimentId(), routing.arm());
    }

    /** The first experiment (in creation order) over {@code agentId}; null when none. */
    private Experiment experimentOver(String agentId) {
        for (Experiment e : cached.get()) if (e.baseAgentId().equals(agentId)) return e;
        return null;
    }

    private boolean failing(Experiment e, Principal caller) {
        int n = e.fallback().afterFailures();
        try {
            List<String> latest = store.recentTurnStatuses(
                    e.id(),
                    caller.tenantId(),
                    caller.userId(),
                    clock.instant().minus(e.triggers().window()),
                    n);
            return latest.size() == n && latest.stream().noneMatch(ArmMetrics.NOT_ERRORS::contains);
        } catch (RuntimeException ex) {
            log.warn("experiment {}: fallback not checked: {}", e.id(), ex.toString());
            return false;
        }
    }

    /** Whether sessions of {@code agentId} may belong to an experiment (their turns are then recorded). */
    boolean mayRoute(String agentId) {
        for (Experiment e : cached.get()) if (e.agentIds().contains(agentId)) return true;
        return false;
    }

    ExperimentStore store() {
        return store;
    }

    ExperimentListener listener() {
        return listener;
    }

    // ---- administration

    /** Every experiment, freshly read. */
    public List<Experiment> list(Principal admin) {
        Sessions.require(admin, ADMIN);
        return store.experiments();
    }

    /**
     * The experiment with its arms side by side over {@code window} (null: the experiment's rollback window).
     *
     * @throws RefusalException {@link Refusal.NotFound} for an unknown id
     */
    public ExperimentReport report(Principal admin, String id, Duration window) {
        Sessions.require(admin, ADMIN);
        Experiment e = find(id);
        Instant since =
                clock.instant().minus(window != null ? window : e.triggers().window());
        List<ArmMetrics> metrics = store.metrics(e, since);
        Map<String, List<TriggerFired>> breaking = new LinkedHashMap<>();
        for (ArmMetrics m : metrics) {
            if (m.arm().equals(e.controlArm()) || m.arm().equals(Routing.FALLBACK_ARM)) continue;
            List<TriggerFired> fired = e.triggers().firing(m);
            if (!fired.isEmpty()) breaking.put(m.arm(), fired);
        }
        return new ExperimentReport(
                e, since, metrics, breaking, store.auditTrail(OperatorAuditRecord.experiment(e.id()), TRAIL));
    }

    /**
     * Creates an experiment from its definition (see {@link ExperimentDefinition}).
     *
     * @throws RefusalException {@link Refusal.InvalidInput} for a definition that does not read;
     *     {@link Refusal.InvalidValue} for an agent that is not configured, a base agent another experiment already
     *     has, or an id that is taken
     */
    public Experiment create(Principal admin, String id, JsonNode definition) {
        Sessions.require(admin, ADMIN);
        if (id == null || !Experiment.ID.matcher(id).matches())
            throw RefusalException.invalidInput(
                    "field 'id' must be 1-64 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit");
        Experiment e;
        try {
            e = ExperimentDefinition.read(id, definition, "experiment", 1);
        } catch (IllegalArgumentException bad) {
            throw RefusalException.invalidInput(bad.getMessage());
        }
        String unknown = ExperimentSettings.unknownAgent(e, agents);
        if (unknown != null) throw invalidValue("unknown agent '" + unknown + "'");
        for (Experiment other : store.experiments())
            if (other.baseAgentId().equals(e.baseAgentId()) && !other.id().equals(id))
                throw invalidValue("experiment " + other.id() + " is already over agent " + e.baseAgentId());
        if (!store.create(e, audit(e.id(), "created", admin.userId(), ExperimentDefinition.write(e))))
            throw invalidValue("experiment " + id + " exists");
        log.info("experiment {} created by {}: weights {}", id, admin.userId(), e.weights());
        cached.invalidate();
        return e;
    }

    /**
     * Moves arms' weights (a staged rollout: 10, then 50, then 100), audited with the weights before and after.
     *
     * @throws RefusalException {@link Refusal.NotFound}; {@link Refusal.InvalidValue} for an arm the experiment does
     *     not have or a weight out of range
     */
    public Experiment setWeights(Principal admin, String id, Map<String, Integer> weights, String reason) {
        Sessions.require(admin, ADMIN);
        if (weights.isEmpty()) throw RefusalException.invalidInput("field 'weights' must name at least one arm");
        // compare-and-set: a rollback (or another operator) changing it meanwhile makes this read again
        for (int attempt = 0; attempt < 5; attempt++) {
            Experiment current = find(id);
            Experiment changed;
            try {
                changed = current.withWeights(weights);
            } catch (IllegalArgumentException bad) {
                throw invalidValue(bad.getMessage());
            }
            ObjectNode detail = JSON.createObjectNode();
            detail.set("from", JSON.valueToTree(current.weights()));
            detail.set("to", JSON.valueToTree(changed.weights()));
            if (reason != null) detail.put("reason", reason);
            if (store.replace(changed, current.version(), audit(id, "weights_changed", admin.userId(), detail))) {
                log.info(
                        "experiment {}: weights {} -> {} by {}",
                        id,
                        current.weights(),
                        changed.weights(),
                        admin.userId());
                cached.invalidate();
                return changed;
            }
        }
        throw new RefusalException(new Refusal.InvalidValue("experiment " + id + " keeps changing; try again"));
    }

    /**
     * Attaches an eval run to an arm: its pass rate shows next to the arm's metrics and feeds the accuracy trigger.
     * The seam for the eval harness, which calls this (or the admin endpoint) after a suite ran against the arm's
     * agent.
     *
     * @throws RefusalException {@link Refusal.NotFound} for an unknown experiment or arm; {@link Refusal.InvalidValue}
     *     for counts out of range
     */
    public EvalRun recordEvalRun(Principal admin, String id, String arm, String suite, int scenarios, int passed) {
        Sessions.require(admin, ADMIN);
        return recordEvalRun(admin.userId(), id, arm, suite, scenarios, passed);
    }

    /** {@link #recordEvalRun(Principal, String, String, String, int, int)} for a caller inside the process. */
    public EvalRun recordEvalRun(String actor, String id, String arm, String suite, int scenarios, int passed) {
        Experiment e = find(id);
        if (e.arm(arm).isEmpty()) throw RefusalException.notFound("arm " + arm + " of experiment " + id);
        EvalRun run;
        try {
            run = new EvalRun(id, arm, suite == null ? "unnamed" : suite, scenarios, passed, actor, clock.instant());
        } catch (IllegalArgumentException bad) {
            throw invalidValue(bad.getMessage());
        }
        ObjectNode detail = JSON.createObjectNode()
                .put("arm", arm)
                .put("suite", run.suite())
                .put("scenarios", scenarios)
                .put("passed", passed);
        store.recordEvalRun(run, audit(id, "eval_recorded", actor, detail));
        listener.evalRecorded(id, arm, run.passRate());
        return run;
    }

    // ---- rollback

    /** An arm set to weight 0 by a trigger. */
    public record Rollback(String experimentId, String arm, List<TriggerFired> fired) {}

    /**
     * Judges every experiment's treatment arms that still take sessions against its triggers, and sets the weight of
     * each that breaks one to 0, with an audit record; of several instances judging at once, one changes it.
     *
     * @return the rollbacks this call made
     */
    public List<Rollback> evaluateTriggers() {
        List<Rollback> done = new ArrayList<>();
        for (Experiment e : store.experiments()) {
            if (!e.treating()) continue;
            // the rolling window, but nothing from before the weights last changed: an operator who raises an arm
            // again after a rollback starts a new judgement instead of being rolled back for the old turns
            Instant since = clock.instant().minus(e.triggers().window());
            Instant lastChange = store.changedAt(e.id()).orElse(since);
            List<ArmMetrics> metrics = store.metrics(e, lastChange.isAfter(since) ? lastChange : since);
            Map<String, List<TriggerFired>> fired = new LinkedHashMap<>();
            Map<String, ArmMetrics> evidence = new LinkedHashMap<>();
            for (ArmMetrics m : metrics) {
                var arm = e.arm(m.arm());
                if (arm.isEmpty()
                        || arm.get().name().equals(e.controlArm())
                        || arm.get().weight() == 0) continue;
                List<TriggerFired> breaks = e.triggers().firing(m);
                if (!breaks.isEmpty()) {
                    fired.put(m.arm(), breaks);
                    evidence.put(m.arm(), m);
                }
            }
            if (fired.isEmpty()) continue;
            Experiment changed = e.withWeights(fired.keySet().stream().collect(Collectors.toMap(a -> a, a -> 0)));
            ObjectNode detail = JSON.createObjectNode();
            detail.set("from", JSON.valueToTree(e.weights()));
            detail.set("to", JSON.valueToTree(changed.weights()));
            detail.set("triggers", JSON.valueToTree(fired));
            detail.set("evidence", evidence(evidence, lastChange.isAfter(since) ? lastChange : since));
            if (!store.replace(changed, e.version(), audit(e.id(), "rolled_back", OperatorAuditRecord.SYSTEM, detail)))
                continue; // another instance (or an operator) changed it first; judged again next time
            cached.invalidate();
            fired.forEach((arm, breaks) -> {
                log.warn(
                        "experiment {}: arm {} ROLLED BACK (weight 0, new sessions go to {}): {}",
                        e.id(),
                        arm,
                        e.controlArm(),
                        breaks.stream().map(TriggerFired::describe).collect(Collectors.joining("; ")));
                breaks.forEach(b -> listener.rolledBack(e.id(), arm, b));
                done.add(new Rollback(e.id(), arm, breaks));
            });
        }
        return done;
    }

    /** What each rolled-back arm showed, for the audit record: who can check the decision sees what it rested on. */
    private static ObjectNode evidence(Map<String, ArmMetrics> arms, Instant since) {
        ObjectNode out = JSON.createObjectNode();
        arms.forEach((arm, m) -> out.putObject(arm)
                .put("since", since.toString())
                .put("turns", m.turns())
                .put("failedTurns", m.failedTurns())
                .put("users", m.users())
                .put("p95LatencyMs", m.p95LatencyMs())
                .put("conversations", m.conversations())
                .put("costUsd", m.costUsd())
                .put(
                        "evalPassRate",
                        m.latestEval() == null ? null : m.latestEval().passRate()));
        return out;
    }

    /** Stores the configured experiments that the store does not have yet. */
    public void seed(List<Experiment> configured) {
        for (Experiment e : configured) {
            if (store.experiment(e.id()).isPresent()) continue;
            if (store.create(e, audit(e.id(), "created", "config", ExperimentDefinition.write(e))))
                log.info("experiment {} created from the configuration: weights {}", e.id(), e.weights());
        }
        cached.invalidate();
    }

    private Experiment find(String id) {
        return store.experiment(id).orElseThrow(() -> RefusalException.notFound("experiment"));
    }

    private OperatorAuditRecord audit(String id, String action, String actor, JsonNode detail) {
        return new OperatorAuditRecord(
                Ids.newId(), OperatorAuditRecord.experiment(id), action, actor, detail.toString(), clock.instant());
    }

    private static RefusalException invalidValue(String message) {
        return new RefusalException(new Refusal.InvalidValue(message));
    }
}
