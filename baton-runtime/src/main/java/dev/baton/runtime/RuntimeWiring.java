package dev.baton.runtime;

import dev.baton.core.audit.AuditStore;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.CachingTokenCounter;
import dev.baton.core.turn.TurnJournal;
import dev.baton.core.turn.TurnRunner;
import dev.baton.runtime.admission.AdmittedModelCalls;
import dev.baton.runtime.admission.BucketStore;
import dev.baton.runtime.admission.IdempotencyKeyExpiry;
import dev.baton.runtime.admission.IdempotencyKeys;
import dev.baton.runtime.admission.TurnAdmission;
import dev.baton.runtime.agent.ResourcePrompt;
import dev.baton.runtime.approval.ApprovalExpiry;
import dev.baton.runtime.approval.ApprovalGate;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.assignment.AssignmentPrompt;
import dev.baton.runtime.audit.AuditTrails;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.durable.DurableRetries;
import dev.baton.runtime.durable.DurableTurns;
import dev.baton.runtime.durable.DurableTurnsJob;
import dev.baton.runtime.durable.InstanceIdentity;
import dev.baton.runtime.durable.LeasedTurnJournal;
import dev.baton.runtime.durable.OrphanedTurns;
import dev.baton.runtime.experiment.ExperimentSetup;
import dev.baton.runtime.experiment.ExperimentTurnRecorder;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.experiment.RollbackJob;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.session.ConfigCascade;
import dev.baton.runtime.session.ModuleSessionEvents;
import dev.baton.runtime.session.PriorSessions;
import dev.baton.runtime.session.SessionEventBus;
import dev.baton.runtime.session.SessionLifecycle;
import dev.baton.runtime.session.SessionSweeper;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.session.tool.StandardToolSource;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.tool.ToolAccess;
import dev.baton.runtime.turn.RunningTurns;
import dev.baton.runtime.turn.TurnDispatcher;
import dev.baton.runtime.turn.TurnObserver;
import dev.baton.runtime.usage.UsageReports;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

/**
 * Wires the runtime's services from what a {@link BatonBuilder} was given: which service needs which, in the order
 * they must be made. Whatever it opens is closed again if a later step fails, so a failed build leaks nothing.
 */
final class RuntimeWiring {
    private RuntimeWiring() {}

    /**
     * @throws ConfigException when the configuration is invalid
     */
    static Baton wire(RuntimeParts given) {
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        try {
            return wire(given, opened);
        } catch (RuntimeException e) {
            while (!opened.isEmpty()) {
                try {
                    opened.pop().close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static Baton wire(RuntimeParts given, Deque<AutoCloseable> opened) {
        RuntimeSettings.checkAgents(given.sessionLimits, given.assignments, given.experiments, given.agents);
        FlagSettings flagSettings;
        try {
            flagSettings = given.flags.withEnvironment(given.environment);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        ExperimentSetup setup = ExperimentSetup.of(
                given.experiments,
                flagSettings,
                given.experimentStore,
                given.flagStore,
                given.agents,
                given.experimentListener,
                given.clock);
        Experiments experiments = setup.experiments();
        ExperimentTurnRecorder experimentTurns = opened(opened, new ExperimentTurnRecorder(experiments, given.clock));
        ConfigCascade cascade = new ConfigCascade(given.sessionLimits);
        Duration shortest = cascade.shortestInactivityTimeout(given.agents.all(), given.assignments.all());
        TurnEventLog turnEvents =
                given.turnEventLog != null ? given.turnEventLog : TurnEventLog.inProcess(given.streams);
        SessionEventBus events = new SessionEventBus();
        SessionLifecycle lifecycle =
                new SessionLifecycle(given.sessionStore, cascade, given.assignments, events, given.clock, shortest);
        ModulePipeline modules = given.moduleSource == null
                ? ModulePipeline.none(given.clock)
                : new ModulePipeline(given.moduleSource, given.auditStore, given.clock);
        if (given.moduleSource != null)
            events.add(new ModuleSessionEvents(modules, given.agents, given.assignments, given.clock));
        List<ToolSource> sources = new ArrayList<>(given.toolSources);
        sources.add(
                new StandardToolSource(given.conversationStore, given.assignments, new PriorSessions(given.search)));
        ToolCatalog tools = new ToolCatalog(given.toolGuard.apply(List.copyOf(sources)));
        ApprovalStore approvalsKept = given.approvalStore != null ? given.approvalStore : ApprovalStore.inMemory();
        LeasedTurnJournal journal = given.durableTurns.enabled() && given.turnLeaseStore != null
                ? new LeasedTurnJournal(
                        given.turnLeaseStore,
                        InstanceIdentity.boot(given.durableTurns.instanceId()),
                        given.durableTurns.lease(),
                        given.clock)
                : null;
        ApprovalGate gate = new ApprovalGate(approvalsKept, given.approvals, given.clock);
        TurnRunner runner = new TurnRunner(
                        given.conversationStore,
                        given.models,
                        tools,
                        CachingTokenCounter.of(given.tokenCounter),
                        given.prices,
                        given.clock,
                        modules)
                .withPromptSections(new ResourcePrompt(given.resources).over(AssignmentPrompt::sectionsFor))
                .withApprovals(gate)
                .withJournal(journal != null ? journal : TurnJournal.NONE);
        RunningTurns running = opened(
                opened,
                given.turnLocks == null
                        ? new RunningTurns()
                        : RunningTurns.shared(
                                given.turnLocks,
                                journal == null ? null : journal.self().lockHolder()));
        TurnDispatcher dispatcher = opened(
                opened,
                new TurnDispatcher(runner, running, TurnObserver.both(given.observer, experimentTurns), given.tracing));
        Sessions sessions = new Sessions(
                given.conversationStore, given.agents, given.assignments, lifecycle, running, experiments, given.clock);
        TurnAdmission limits = opened(
                opened,
                TurnAdmission.create(
                        given.rateLimits,
                        given.budgets,
                        given.sharedBuckets != null ? given.sharedBuckets : BucketStore.local(given.clock),
                        given.sharedReservations,
                        given.usageStore,
                        given.prices,
                        given.clock,
                        given.refusals,
                        sessions));
        IdempotencyKeys keys = given.idempotencyStore == null
                ? null
                : new IdempotencyKeys(
                        given.idempotencyStore,
                        given.clock,
                        given.agents.longestRequestTimeout().plus(given.idempotency.claimMargin()));
        Approvals approvals = new Approvals(
                approvalsKept,
                given.approvals,
                sessions,
                given.conversationStore,
                given.agents,
                limits,
                dispatcher,
                runner,
                tools,
                given.clock);
        DurableRetries retries = journal != null && keys != null
                ? journal.keysFrom(new DurableRetries(
                        given.turnLeaseStore,
                        keys,
                        given.durableTurns.lease().plus(given.agents.longestRequestTimeout()),
                        given.durableTurns.heartbeat()))
                : null;
        OrphanedTurns orphans = journal == null
                ? null
                : new OrphanedTurns(
                        given.turnLeaseStore,
                        journal,
                        given.durableTurns,
                        sessions,
                        given.agents,
                        dispatcher,
                        limits,
                        runner,
                        turnEvents,
                        retries,
                        tools,
                        gate,
                        given.clock);
        Conversations conversations = new Conversations(
                sessions,
                given.agents,
                limits,
                dispatcher,
                keys,
                approvals,
                orphans == null ? null : new DurableTurns(orphans, retries));
        List<Supplier<AutoCloseable>> jobs = new ArrayList<>();
        jobs.add(() -> SessionSweeper.start(lifecycle, given.lifecycle));
        jobs.add(() -> ApprovalExpiry.start(approvals, given.lifecycle.sweepInterval()));
        if (given.idempotencyStore != null)
            jobs.add(() -> IdempotencyKeyExpiry.start(given.idempotencyStore, given.clock, given.idempotency));
        if (orphans != null) jobs.add(() -> DurableTurnsJob.start(orphans, given.durableTurns.heartbeat()));
        if (given.experimentStore != null) {
            experiments.seed(given.experiments.definitions());
            jobs.add(() -> RollbackJob.start(experiments, given.experiments.evaluateEvery()));
        }
        return new Baton(
                sessions,
                conversations,
                given.agents,
                given.assignments,
                tools,
                new ToolAccess(
                        given.agents, tools, new ToolExecutor(tools, given.clock), sessions, given.conversationStore),
                new UsageReports(given.usageStore, given.clock),
                modules,
                events,
                running,
                limits,
                approvals,
                turnEvents,
                new FollowedTurns(turnEvents),
                new AuditTrails(given.auditStore != null ? given.auditStore : AuditStore.NONE, approvals),
                experiments,
                setup.flags(),
                jobs,
                runner::pendingUsageRows,
                AdmittedModelCalls.over(
                        limits, given.models, given.agents, given.conversationStore, given.prices, given.clock),
                opened);
    }

    private static <T extends AutoCloseable> T opened(Deque<AutoCloseable> opened, T resource) {
        opened.push(resource);
        return resource;
    }
}
