package dev.baton.runtime;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.InMemoryIdempotencyStore;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.TokenCounter;
import dev.baton.runtime.admission.AdmittedModelCalls;
import dev.baton.runtime.admission.TurnAdmission;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.approval.ConversationalConfirmation;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.audit.AuditTrails;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.session.SessionEventBus;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.tool.ToolAccess;
import dev.baton.runtime.turn.RunningTurns;
import dev.baton.runtime.usage.UsageReports;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conversation runtime: one object a front door (the HTTP server, the CLI, a Java program embedding Baton)
 * holds, with {@link #sessions()} to start, list and end conversations and {@link #conversations()} to send a
 * message and run its turn. Every rule lives behind these two: input rules, idempotency, rate limits, budgets,
 * session limits and lifecycle, one turn per session, deadlines, cancellation. Refusals come back as a
 * {@link RefusalException} carrying a sealed {@link Refusal}.
 *
 * <pre>{@code
 * try (Baton baton = Baton.builder()
 *         .conversationStore(store).sessionStore(lifecycleStore)
 *         .models(models).tokenCounter(tokens)
 *         .agents(AgentRegistry.of(List.of(agent)))
 *         .tools(AnnotatedTools.from(new ReadingList()))
 *         .build()) {
 *     Session s = baton.sessions().start(caller, "reader", null);
 *     SendResult r = baton.conversations().send(caller, s.id(), "add Dune to my list",
 *             SendOptions.of("req-1"), event -> System.out.println(event));
 * }
 * }</pre>
 */
public final class Baton implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Baton.class);

    /** Close enough to budget history with no tokenizer on the classpath (baton-providers has exact ones). */
    private static final TokenCounter ABOUT_FOUR_CHARACTERS_A_TOKEN = text -> (text.length() + 3) / 4;

    private final Sessions sessions;
    private final Conversations conversations;
    private final AgentRegistry agents;
    private final Assignments assignments;
    private final ToolCatalog tools;
    private final ToolAccess toolAccess;
    private final UsageReports usage;
    private final ModulePipeline modules;
    private final SessionEventBus sessionEvents;
    private final RunningTurns running;
    private final TurnAdmission admission;
    private final Approvals approvals;
    private final ConversationalConfirmation confirmation;
    private final TurnEventLog turnEvents;
    private final FollowedTurns followedTurns;
    private final AuditTrails auditTrails;
    private final Experiments experiments;
    private final FeatureFlags flags;
    /** Each starts one background job and returns what stops it. */
    private final List<Supplier<AutoCloseable>> backgroundJobs;

    private final java.util.function.IntSupplier pendingUsageRows;
    private final AdmittedModelCalls modelCalls;
    /** What this opened, closed newest first. */
    private final Deque<AutoCloseable> opened;

    private boolean jobsStarted;
    private boolean closed;

    Baton(
            Sessions sessions,
            Conversations conversations,
            AgentRegistry agents,
            Assignments assignments,
            ToolCatalog tools,
            ToolAccess toolAccess,
            UsageReports usage,
            ModulePipeline modules,
            SessionEventBus sessionEvents,
            RunningTurns running,
            TurnAdmission admission,
            Approvals approvals,
            TurnEventLog turnEvents,
            FollowedTurns followedTurns,
            AuditTrails auditTrails,
            Experiments experiments,
            FeatureFlags flags,
            List<Supplier<AutoCloseable>> backgroundJobs,
            java.util.function.IntSupplier pendingUsageRows,
            AdmittedModelCalls modelCalls,
            Deque<AutoCloseable> opened) {
        this.sessions = sessions;
        this.conversations = conversations;
        this.agents = agents;
        this.assignments = assignments;
        this.tools = tools;
        this.toolAccess = toolAccess;
        this.usage = usage;
        this.modules = modules;
        this.sessionEvents = sessionEvents;
        this.running = running;
        this.admission = admission;
        this.approvals = approvals;
        this.confirmation = new ConversationalConfirmation(conversations, approvals, sessions);
        this.turnEvents = turnEvents;
        this.followedTurns = followedTurns;
        this.auditTrails = auditTrails;
        this.experiments = experiments;
        this.flags = flags;
        this.backgroundJobs = List.copyOf(backgroundJobs);
        this.pendingUsageRows = pendingUsageRows;
        this.modelCalls = modelCalls;
        this.opened = new ArrayDeque<>(opened);
    }

    /** Builds a runtime from ports and settings; see {@link BatonBuilder}. */
    public static BatonBuilder builder() {
        return new BatonBuilder();
    }

    /**
     * A whole Baton in this process's memory, in one line: for unit tests and quick starts. Conversations, sessions
     * and their lifecycle, idempotency keys, paused turns and turn events are kept in memory and lost with the
     * process; tokens are counted approximately (a token per four characters); no limits, budgets, hook modules or
     * usage reports. Close it when done; the model resolver stays yours to close.
     *
     * <pre>{@code
     * try (Baton baton = Baton.inMemory(models, librarian, AnnotatedTools.from(new ReadingListTools(books)))) {
     *     Session s = baton.sessions().start(caller, librarian.id(), null);
     *     baton.conversations().send(caller, s.id(), "add Dune to my list", SendOptions.withNewRequestId(), print);
     * }
     * }</pre>
     *
     * For more agents, limits, modules or other stores, use {@link #builder()}: the in-memory stores used here are
     * {@link InMemoryConversationStore}, {@link SessionLifecycleStore#inMemory} over it and
     * {@link InMemoryIdempotencyStore}.
     *
     * @param models resolves the agent's {@code provider:model} reference (one gateway for every reference:
     *     {@code ref -> new ModelBinding(ref, gateway, "model-name")})
     * @param agent the one agent on offer
     * @param tools the tool sources, such as {@code AnnotatedTools.from(yourToolObject)}; the agent sees those its
     *     allow-list names
     */
    public static Baton inMemory(ModelResolver models, AgentDefinition agent, ToolSource... tools) {
        InMemoryConversationStore conversations = new InMemoryConversationStore();
        return builder()
                .conversationStore(conversations)
                .sessionStore(SessionLifecycleStore.inMemory(conversations))
                .idempotencyStore(new InMemoryIdempotencyStore())
                .models(models)
                .tokenCounter(ABOUT_FOUR_CHARACTERS_A_TOKEN)
                .agents(AgentRegistry.of(List.of(agent)))
                .tools(tools)
                .build();
    }

    /** Start, list, read, complete and delete a caller's sessions. */
    public Sessions sessions() {
        return sessions;
    }

    /** Send a message and run its turn. */
    public Conversations conversations() {
        return conversations;
    }

    /**
     * Decide tool calls held for the user's approval (the paused turn goes on, on this instance), list what a session
     * waits on, and the approval audit trail.
     */
    public Approvals approvals() {
        return approvals;
    }

    /**
     * Sending a message with approvals asked and answered in words, for front doors without an approval UI: a held
     * call ends the turn with a question, and the user's next message decides it (see
     * {@link ConversationalConfirmation}).
     */
    public ConversationalConfirmation confirmation() {
        return confirmation;
    }

    /** Recent turns' events, for front doors that let a client take a dropped stream up again or follow a turn. */
    public TurnEventLog turnEvents() {
        return turnEvents;
    }

    /**
     * Who may follow which turn's kept events (its own user, or {@value FollowedTurns#OBSERVE} in the same tenant),
     * and a reader of them for a turn the caller may follow.
     */
    public FollowedTurns followedTurns() {
        return followedTurns;
    }

    /**
     * Sessions' audit trails for administrators ({@value AuditTrails#AUDIT}): the hook modules' records, kept in the
     * audit store given with {@link BatonBuilder#modules}, and the tool calls held for approval. Without an audit
     * store a trail has no module records, only the approvals.
     */
    public AuditTrails auditTrails() {
        return auditTrails;
    }

    /** A/B experiments over agents: routing, staged weights, per-arm metrics, eval runs and rollbacks. */
    public Experiments experiments() {
        return experiments;
    }

    /** Feature flags (boolean or a percentage of users) from baton.yaml, {@code FF_} variables and the admin API. */
    public FeatureFlags flags() {
        return flags;
    }

    /** The configured agents, in configuration order. */
    public AgentRegistry agents() {
        return agents;
    }

    /** The configured assignments. */
    public Assignments assignments() {
        return assignments;
    }

    /** Every tool on offer, by name. */
    public ToolCatalog tools() {
        return tools;
    }

    /** The tools a caller may use, and a call of one outside any turn (Baton's MCP endpoint). */
    public ToolAccess toolAccess() {
        return toolAccess;
    }

    /** Model calls outside a turn (content jobs, tools that call a model), under the turns' admission. */
    public AdmittedModelCalls modelCalls() {
        return modelCalls;
    }

    /** Tokens and cost reports for administrators. */
    public UsageReports usage() {
        return usage;
    }

    /** The hook modules every turn runs through. */
    public ModulePipeline modules() {
        return modules;
    }

    /** Where {@code session:start} and {@code session:end} listeners are added. */
    public SessionEventBus sessionEvents() {
        return sessionEvents;
    }

    /** The turns running on this instance now. */
    public RunningTurns runningTurns() {
        return running;
    }

    /**
     * How many usage rows of finished model calls wait in memory for the database: their turn ended while it was
     * unavailable; they are written as soon as it takes them (see docs/operations.md).
     */
    public int pendingUsageRows() {
        return pendingUsageRows.getAsInt();
    }

    /** One line about the rate limits and budgets in force, for the startup log. */
    public String describeLimits() {
        return admission.describe();
    }

    /**
     * Starts the background jobs: the inactivity sweep, the expiry of tool calls waiting for approval, the
     * idempotency key expiry and the experiments' rollback triggers (once; stopped by close).
     */
    public synchronized void startBackgroundJobs() {
        if (jobsStarted || closed) return;
        jobsStarted = true;
        for (Supplier<AutoCloseable> job : backgroundJobs) opened.push(job.get());
    }

    /** Stops the background jobs and closes what the runtime opened, newest first; the ports given to it stay open. */
    @Override
    public synchronized void close() {
        closed = true;
        while (!opened.isEmpty()) {
            AutoCloseable next = opened.pop();
            try {
                next.close();
            } catch (Exception e) {
                log.warn("closing {} failed: {}", next.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
