package dev.baton.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Builds a {@link Baton}: the stores it persists to and the models it calls are required; everything else has a
 * default that suits one process (no limits, turn locks in this process, no hook modules).
 *
 * <p>Ownership: the runtime closes what it creates (the turn dispatcher, the rate-limit buckets, the turn locks it
 * connected, the background jobs). The stores, the database, the model resolver and any Redis client are given to it
 * and stay yours: close them after the runtime.
 *
 * <p>Settings are typed values, each with its defaults: set them in code ({@link #approvals}, {@link #sessionLimits},
 * …), or let {@link #configure} read them from baton.yaml's sections, which reads each section with its settings
 * type's own reader and hands it to the same setter.
 */
public final class BatonBuilder {
    private final RuntimeParts given = new RuntimeParts();

    BatonBuilder() {}

    /** Reads and writes conversations (required). */
    public BatonBuilder conversationStore(ConversationStore store) {
        given.conversationStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /** Starts and ends sessions under their terms (required). */
    public BatonBuilder sessionStore(SessionLifecycleStore store) {
        given.sessionStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /** Full-text search over earlier conversations, for {@code search_prior_sessions} (default: finds nothing). */
    public BatonBuilder conversationSearch(ConversationSearch search) {
        given.search = Objects.requireNonNull(search, "search");
        return this;
    }

    /** Remembers idempotency keys (default: none; a request with a key is then refused). */
    public BatonBuilder idempotencyStore(IdempotencyStore store) {
        given.idempotencyStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /**
     * Keeps the leases and checkpoints of running turns, so a turn whose instance died goes on on another (used when
     * baton.yaml's {@code durableTurns.enabled}; the conversation store must write its steps to the same place).
     */
    public BatonBuilder turnLeaseStore(TurnLeaseStore store) {
        given.turnLeaseStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /**
     * Keeps turns paused for the user's approval of tool calls, so a decision can reach any instance (default: this
     * process's memory, which a restart empties).
     */
    public BatonBuilder approvalStore(ApprovalStore store) {
        given.approvalStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /**
     * Keeps recent turns' events so a dropped stream can be taken up again and a second client can follow a turn
     * (the baton-redis module's, across instances); default: in this process, under baton.yaml's {@code streams}
     * section. A log given here stays yours to close.
     */
    public BatonBuilder turnEventLog(TurnEventLog log) {
        given.turnEventLog = Objects.requireNonNull(log, "log");
        return this;
    }

    /** Reads what model calls cost, for budgets and reports (default: nothing was spent). */
    public BatonBuilder usageStore(UsageStore store) {
        given.usageStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /** Finds the model gateway for a model reference (required). */
    public BatonBuilder models(ModelResolver models) {
        given.models = Objects.requireNonNull(models, "models");
        return this;
    }

    /** Counts tokens for the history budget (required); the turns keep its counts in a bounded cache. */
    public BatonBuilder tokenCounter(TokenCounter tokens) {
        given.tokenCounter = Objects.requireNonNull(tokens, "tokens");
        return this;
    }

    /** Prices model calls (default: free). */
    public BatonBuilder prices(CostCalculator prices) {
        given.prices = Objects.requireNonNull(prices, "prices");
        return this;
    }

    /** The agents on offer (required). */
    public BatonBuilder agents(AgentRegistry agents) {
        given.agents = Objects.requireNonNull(agents, "agents");
        return this;
    }

    /** Adds tool sources; the standard tools (assignment info, prior sessions) are always added. */
    public BatonBuilder tools(ToolSource... sources) {
        given.toolSources.addAll(List.of(sources));
        return this;
    }

    /** Wraps every tool source before use (circuit breakers, metering). */
    public BatonBuilder toolGuard(UnaryOperator<List<ToolSource>> guard) {
        given.toolGuard = Objects.requireNonNull(guard, "guard");
        return this;
    }

    /**
     * Hook modules and where their audit records go (default: no modules, and {@link Baton#auditTrails()} has no
     * module records, only the approvals).
     */
    public BatonBuilder modules(ModuleSource modules, AuditStore audit) {
        given.moduleSource = Objects.requireNonNull(modules, "modules");
        given.auditStore = Objects.requireNonNull(audit, "audit");
        return this;
    }

    /**
     * Rate limits and budgets (default: none). Budgets are checked against the {@link #usageStore} and reserve the
     * worst-case cost of a turn at the {@link #prices}; both come from this builder.
     */
    public BatonBuilder limits(RateLimitSettings rateLimits, BudgetSettings budgets) {
        return rateLimits(rateLimits).budgets(budgets);
    }

    /** How many messages a user and a tenant may send (default: {@link RateLimitSettings#OFF}). */
    public BatonBuilder rateLimits(RateLimitSettings settings) {
        given.rateLimits = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * How much a user and a tenant may spend (default: {@link BudgetSettings#NONE}); checked against the
     * {@link #usageStore} at the {@link #prices}.
     */
    public BatonBuilder budgets(BudgetSettings settings) {
        given.budgets = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * The org level of the session limits cascade (baton.yaml's {@code limits}; default {@link SessionLimits#DEFAULTS}):
     * an agent's and an assignment's own limits override it key by key. (The org level of the per-turn limits is the
     * base the agents were loaded on.)
     */
    public BatonBuilder sessionLimits(SessionLimits org) {
        given.sessionLimits = Objects.requireNonNull(org, "org");
        return this;
    }

    /** The assignments sessions may be started for (default: none); each one's agent must be among the agents. */
    public BatonBuilder assignments(Assignments assignments) {
        given.assignments = Objects.requireNonNull(assignments, "assignments");
        return this;
    }

    /** How often idle and expired sessions are completed (baton.yaml's {@code lifecycle}). */
    public BatonBuilder lifecycle(SessionSweeper.Settings settings) {
        given.lifecycle = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /** How long idempotency keys are kept, and claims of dead requests held (baton.yaml's {@code idempotency}). */
    public BatonBuilder idempotency(IdempotencyKeyExpiry.Settings settings) {
        given.idempotency = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /** How long a held tool call waits and the default approval policy (baton.yaml's {@code approvals}). */
    public BatonBuilder approvals(ApprovalSettings settings) {
        given.approvals = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /** Whether running turns are leased and taken over when their instance dies (baton.yaml's {@code durableTurns}). */
    public BatonBuilder durableTurns(DurableTurnSettings settings) {
        given.durableTurns = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * How many events of a turn are kept, and how long (baton.yaml's {@code streams}), for the in-process log used
     * when no {@link #turnEventLog} is given.
     */
    public BatonBuilder streams(TurnEventLogSettings settings) {
        given.streams = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * How experiments refresh and are judged, and those to seed (baton.yaml's {@code experiments}); defining any needs
     * an {@link #experimentStore}, and every agent they name must be among the agents.
     */
    public BatonBuilder experiments(ExperimentSettings settings) {
        given.experiments = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * Feature flags (baton.yaml's {@code flags}); the {@code FF_<NAME>} overrides are read from the
     * {@link #environment} when the runtime is built.
     */
    public BatonBuilder flags(FlagSettings settings) {
        given.flags = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * Where rate-limit buckets and budget reservations live when several instances share them (the baton-redis
     * module); default: in this process. The bucket store is closed with the runtime; the reservation ledger and
     * whatever client both use stay yours to close.
     *
     * @param reservations null to keep budget reservations in this process
     */
    public BatonBuilder sharedLimits(BucketStore buckets, ReservationLedger reservations) {
        given.sharedBuckets = Objects.requireNonNull(buckets, "buckets");
        given.sharedReservations = reservations;
        return this;
    }

    /** Hears of every message a rate limit or budget refuses, before it is refused (metrics). */
    public BatonBuilder refusalListener(Consumer<Refusal> listener) {
        given.refusals = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** Turn locks and cancels shared with other instances (default: this process only); closed with the runtime. */
    public BatonBuilder turnLocks(TurnLocks.Connector connector) {
        given.turnLocks = Objects.requireNonNull(connector, "connector");
        return this;
    }

    /** Hears of every finished turn (metrics). */
    public BatonBuilder observer(TurnObserver observer) {
        given.observer = Objects.requireNonNull(observer, "observer");
        return this;
    }

    /**
     * Reads the resources agents attach to their context ({@code context.mcpResources}) for every turn (default:
     * none can be read, and an agent that names one gets none).
     */
    public BatonBuilder resources(ResourceReader reader) {
        given.resources = Objects.requireNonNull(reader, "reader");
        return this;
    }

    /** Traces every turn with OpenTelemetry (GenAI conventions); off unless given. */
    public BatonBuilder tracing(TurnTracing tracing) {
        given.tracing = Objects.requireNonNull(tracing, "tracing");
        return this;
    }

    /**
     * Where experiments, their sessions' arms and turns, and the operators' audit trail are kept, shared by every
     * instance (default: none; baton.yaml's {@code experiments} then must define none, and creating one is refused).
     */
    public BatonBuilder experimentStore(ExperimentStore store) {
        given.experimentStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /** Where feature flag values set at runtime are kept, shared by every instance (default: this process only). */
    public BatonBuilder flagStore(FlagStore store) {
        given.flagStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /** Hears what experiments do: routing, turns, rollbacks (metrics). */
    public BatonBuilder experimentListener(ExperimentListener listener) {
        given.experimentListener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** The environment {@code FF_<NAME>} feature flag overrides are read from (default: the process's). */
    public BatonBuilder environment(Map<String, String> env) {
        given.environment = Map.copyOf(Objects.requireNonNull(env, "env"));
        return this;
    }

    /** Injected time: sessions, limits, budgets and sweeps read it (tests move it instead of sleeping). */
    public BatonBuilder clock(Clock clock) {
        given.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * The runtime's sections of a configuration tree (baton.yaml as parsed), each read by its settings type and given
     * to its setter: {@code limits} ({@link #sessionLimits}), {@code assignments}, {@code lifecycle},
     * {@code idempotency}, {@code approvals}, {@code streams}, {@code experiments} and {@code flags}. A section that is
     * absent sets its defaults; a later setter call wins over what this read.
     *
     * @throws ConfigException naming the first setting that is wrong
     */
    public BatonBuilder configure(JsonNode root) {
        RuntimeSettings read = RuntimeSettings.read(root == null ? MissingNode.getInstance() : root);
        return sessionLimits(read.sessionLimits())
                .assignments(read.assignments())
                .lifecycle(read.lifecycle())
                .idempotency(read.idempotency())
                .approvals(read.approvals())
                .durableTurns(read.durableTurns())
                .streams(read.streams())
                .experiments(read.experiments())
                .flags(read.flags());
    }

    /** The sections of a configuration tree that {@link #configure} reads: whoever owns the tree knows these keys. */
    public static final List<String> SECTIONS = RuntimeSettings.SECTIONS;

    /**
     * Reads and checks the runtime's sections of {@code root} for these agents, as {@link #build()} does, without
     * building anything ({@code baton config check}).
     *
     * @throws ConfigException naming the first setting that is wrong (with its {@link dev.baton.core.config.ConfigProblem}
     *     as the cause, for the file's owner to locate)
     */
    public static void check(JsonNode root, AgentRegistry agents) {
        check(root, agents, System.getenv());
    }

    /** {@link #check(JsonNode, AgentRegistry)} with {@code FF_<NAME>} flags read from {@code env}. */
    public static void check(JsonNode root, AgentRegistry agents, Map<String, String> env) {
        RuntimeSettings.check(root == null ? MissingNode.getInstance() : root, agents, env);
    }

    /**
     * Builds the runtime; nothing runs in the background until {@link Baton#startBackgroundJobs()}.
     *
     * @throws ConfigException when a required port is missing or the configuration is invalid
     */
    public Baton build() {
        given.requirePorts();
        return RuntimeWiring.wire(given);
    }
}
