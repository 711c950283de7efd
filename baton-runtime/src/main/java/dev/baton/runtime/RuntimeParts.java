package dev.baton.runtime;

import dev.baton.core.audit.AuditStore;
import dev.baton.core.context.ResourceReader;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.IdempotencyStore;
import dev.baton.core.hook.ModuleSource;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.trace.TurnTracing;
import dev.baton.core.turn.TokenCounter;
import dev.baton.runtime.admission.BucketStore;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.admission.IdempotencyKeyExpiry;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.admission.ReservationLedger;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.ApprovalSettings;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.durable.DurableTurnSettings;
import dev.baton.runtime.durable.TurnLeaseStore;
import dev.baton.runtime.experiment.ExperimentListener;
import dev.baton.runtime.experiment.ExperimentSettings;
import dev.baton.runtime.experiment.ExperimentStore;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.flag.FlagStore;
import dev.baton.runtime.session.ConversationSearch;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.SessionLimits;
import dev.baton.runtime.session.SessionSweeper;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventLogSettings;
import dev.baton.runtime.turn.TurnLocks;
import dev.baton.runtime.turn.TurnObserver;
import dev.baton.runtime.usage.UsageStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * What a {@link BatonBuilder} has been given so far, and the default of everything it was not: the builder's setters
 * fill it in, {@link RuntimeWiring} reads it once to wire the runtime. A null port is one that was not given.
 */
final class RuntimeParts {
    Clock clock = Clock.systemUTC();
    ConversationStore conversationStore;
    SessionLifecycleStore sessionStore;
    ConversationSearch search = (tenant, user, query, exclude, limit) -> List.of();
    IdempotencyStore idempotencyStore;
    ApprovalStore approvalStore;
    TurnEventLog turnEventLog;
    UsageStore usageStore = UsageStore.NONE;
    ModelResolver models;
    TokenCounter tokenCounter;
    CostCalculator prices = CostCalculator.FREE;
    AgentRegistry agents;
    final List<ToolSource> toolSources = new ArrayList<>();
    UnaryOperator<List<ToolSource>> toolGuard = UnaryOperator.identity();
    ModuleSource moduleSource;
    AuditStore auditStore;
    RateLimitSettings rateLimits = RateLimitSettings.OFF;
    BudgetSettings budgets = BudgetSettings.NONE;
    BucketStore sharedBuckets;
    ReservationLedger sharedReservations;
    Consumer<Refusal> refusals = refused -> {};
    TurnLocks.Connector turnLocks;
    TurnObserver observer = TurnObserver.NONE;
    TurnTracing tracing = TurnTracing.OFF;
    ResourceReader resources = ResourceReader.NONE;
    SessionLimits sessionLimits = SessionLimits.DEFAULTS;
    Assignments assignments = Assignments.none();
    SessionSweeper.Settings lifecycle = SessionSweeper.Settings.DEFAULTS;
    IdempotencyKeyExpiry.Settings idempotency = IdempotencyKeyExpiry.Settings.DEFAULTS;
    ApprovalSettings approvals = ApprovalSettings.DEFAULTS;
    DurableTurnSettings durableTurns = DurableTurnSettings.DEFAULTS;
    TurnLeaseStore turnLeaseStore;
    TurnEventLogSettings streams = TurnEventLogSettings.DEFAULTS;
    ExperimentSettings experiments = ExperimentSettings.DEFAULTS;
    FlagSettings flags = FlagSettings.NONE;
    Map<String, String> environment = System.getenv();
    ExperimentStore experimentStore;
    FlagStore flagStore;
    ExperimentListener experimentListener = ExperimentListener.NONE;

    /**
     * @throws ConfigException naming the first required port that was not given
     */
    void requirePorts() {
        require(conversationStore, "conversationStore");
        require(sessionStore, "sessionStore");
        require(models, "models");
        require(tokenCounter, "tokenCounter");
        require(agents, "agents");
    }

    private static void require(Object port, String name) {
        if (port == null) throw new ConfigException("Baton.builder(): " + name + " is required");
    }
}
