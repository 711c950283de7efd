package dev.baton.core.hook;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.id.Ids;
import dev.baton.core.trace.TurnTracing;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an agent's modules on each hook (DESIGN §4), in priority order (lower first), each with its timeout.
 *
 * <p>Blocking hooks ({@link #beforeAi}, {@link #afterAi}) compose: each module sees the user message or answer as
 * the previous one left it; the first block wins. Asynchronous hooks ({@link #onMessage}, {@link #sessionStarted},
 * {@link #sessionEnded}) run on a virtual thread and never delay the caller; their extractions are stored through
 * the {@link AuditStore}. A module that throws or times out is logged (module, hook, request and session ids —
 * never the conversation), counted in {@link #failures()} and skipped — unless it fails closed, which blocks the
 * turn with its safe response.
 */
public final class ModulePipeline {
    private static final Logger log = LoggerFactory.getLogger(ModulePipeline.class);

    /** What the user is told when a fail-closed module fails and names no response of its own. */
    public static final String SAFE_RESPONSE = "I'm sorry, I can't help with that right now. Please try again later.";

    private static final Comparator<Module> BY_PRIORITY =
            Comparator.comparingInt(m -> m.descriptor().priority());

    private final ModuleSource modules;
    private final AuditStore auditStore;
    private final Clock clock;
    private final ModuleFailures failures = new ModuleFailures();
    private final ModuleActivity activity = new ModuleActivity();

    /**
     * @param auditStore where extractions of asynchronous hooks are stored ({@link AuditStore#NONE} to drop them)
     */
    public ModulePipeline(ModuleSource modules, AuditStore auditStore, Clock clock) {
        this.modules = Objects.requireNonNull(modules, "modules");
        this.auditStore = Objects.requireNonNull(auditStore, "auditStore");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A pipeline without modules. */
    public static ModulePipeline none(Clock clock) {
        return new ModulePipeline(ModuleSource.NONE, AuditStore.NONE, clock);
    }

    /** Failure counts since start. */
    public ModuleFailures failures() {
        return failures;
    }

    /** How often and how long each module ran on each hook, and how often it blocked, since start. */
    public ModuleActivity activity() {
        return activity;
    }

    /** The agent's modules in the order they run. */
    public List<Module> modulesFor(AgentDefinition agent) {
        return modulesFor(HookContexts.agent(agent));
    }

    private List<Module> modulesFor(HookContext.Agent agent) {
        List<Module> sorted = new ArrayList<>(modules.modulesFor(agent));
        sorted.sort(BY_PRIORITY); // stable: equal priorities keep their configured order
        return List.copyOf(sorted);
    }

    /**
     * Whether any of the agent's modules runs after_ai. A turn then shows its text only once after_ai has run
     * (the answer the client sees must be the answer that is stored); output filters keep streaming.
     */
    public boolean rewritesAnswers(AgentDefinition agent) {
        return handlers(HookContexts.agent(agent), Hook.AFTER_AI).findAny().isPresent();
    }

    /**
     * chat:on_message — fire and forget on a virtual thread.
     *
     * @param messageId the id the user message is (or will be) stored with; extractions point at it
     * @return completes when every module has run (tests wait on it; the turn does not)
     */
    public CompletableFuture<Void> onMessage(HookContext context, String messageId) {
        return async(context.forHook(Hook.ON_MESSAGE, clock.instant()), messageId);
    }

    /**
     * session:start — asynchronous, never delays the caller. Build the context with
     * {@link HookContexts#forSession}.
     *
     * @return completes when every module has run
     */
    public CompletableFuture<Void> sessionStarted(HookContext context) {
        return async(context.forHook(Hook.SESSION_START, clock.instant()), null);
    }

    /**
     * session:end — asynchronous, never delays the caller. Build the context with
     * {@link HookContexts#forSession}, giving the reason the session ended.
     *
     * @return completes when every module has run
     */
    public CompletableFuture<Void> sessionEnded(HookContext context) {
        return async(context.forHook(Hook.SESSION_END, clock.instant()), null);
    }

    /** chat:before_ai — blocking; the context's current message is the user's message as sent. */
    public BeforeAiOutcome beforeAi(HookContext context) {
        HookContext base = context.forHook(Hook.BEFORE_AI, clock.instant());
        String original = Objects.requireNonNull(base.conversation().currentMessage(), "current message");
        String message = original;
        boolean modified = false;
        List<String> guidance = new ArrayList<>();
        List<ModuleAudit> audit = new ArrayList<>();
        List<ModuleExtraction> extractions = new ArrayList<>();
        for (Module module : handlers(base.agent(), Hook.BEFORE_AI).toList()) {
            ModuleDescriptor d = module.descriptor();
            switch (ModuleCall.run(module, base.withCurrentMessage(message), failures, activity)) {
                case ModuleCall.Attempt.Failed failed
                when d.failClosed() -> {
                    String reason =
                            "module failed closed (" + failed.kind().name().toLowerCase() + ")";
                    audit.add(new ModuleAudit(d.id(), new HookResult.Audit(original, reason, List.of())));
                    activity.blocked(d.id(), Hook.BEFORE_AI);
                    return new BeforeAiOutcome.Blocked(d.id(), reason, safeResponse(d), audit, extractions);
                }
                case ModuleCall.Attempt.Failed ignored -> {}
                case ModuleCall.Attempt.Ok(HookResult.Block block) -> {
                    collect(d, block, message, audit, extractions);
                    audit.add(new ModuleAudit(
                            d.id(), new HookResult.Audit(original, block.reason(), block.patternsMatched())));
                    activity.blocked(d.id(), Hook.BEFORE_AI);
                    return new BeforeAiOutcome.Blocked(
                            d.id(), block.reason(), block.directResponse(), audit, extractions);
                }
                case ModuleCall.Attempt.Ok(HookResult.Continue next) -> {
                    boolean changes =
                            next.userMessage() != null && !next.userMessage().equals(message);
                    collect(d, next, message, audit, extractions);
                    if (changes && next.audit().isEmpty()) {
                        // a changed message always leaves its original in the audit trail
                        audit.add(new ModuleAudit(
                                d.id(), new HookResult.Audit(message, "user message modified", List.of())));
                    }
                    if (changes) {
                        message = next.userMessage();
                        modified = true;
                    }
                    guidance.addAll(next.guidance());
                }
            }
        }
        return new BeforeAiOutcome.Proceed(message, modified, guidance, audit, extractions);
    }

    /** chat:after_ai — blocking; the context carries the answer (as output filters left it). */
    public AfterAiOutcome afterAi(HookContext context) {
        HookContext base = context.forHook(Hook.AFTER_AI, clock.instant());
        String response = Objects.requireNonNull(base.response(), "response");
        boolean replaced = false;
        List<ModuleAudit> audit = new ArrayList<>();
        List<ModuleExtraction> extractions = new ArrayList<>();
        for (Module module : handlers(base.agent(), Hook.AFTER_AI).toList()) {
            ModuleDescriptor d = module.descriptor();
            switch (ModuleCall.run(module, base.withResponse(response), failures, activity)) {
                case ModuleCall.Attempt.Failed failed
                when d.failClosed() -> {
                    String reason =
                            "module failed closed (" + failed.kind().name().toLowerCase() + ")";
                    audit.add(new ModuleAudit(d.id(), new HookResult.Audit(response, reason, List.of())));
                    activity.blocked(d.id(), Hook.AFTER_AI);
                    return new AfterAiOutcome(safeResponse(d), true, true, audit, extractions);
                }
                case ModuleCall.Attempt.Failed ignored -> {}
                case ModuleCall.Attempt.Ok(HookResult.Block block) -> {
                    collect(d, block, response, audit, extractions);
                    audit.add(new ModuleAudit(
                            d.id(), new HookResult.Audit(response, block.reason(), block.patternsMatched())));
                    activity.blocked(d.id(), Hook.AFTER_AI);
                    return new AfterAiOutcome(block.directResponse(), true, true, audit, extractions);
                }
                case ModuleCall.Attempt.Ok(HookResult.Continue next) -> {
                    boolean changes =
                            next.response() != null && !next.response().equals(response);
                    collect(d, next, response, audit, extractions);
                    if (changes && next.audit().isEmpty()) {
                        audit.add(new ModuleAudit(
                                d.id(), new HookResult.Audit(response, "response replaced", List.of())));
                    }
                    if (changes) {
                        response = next.response();
                        replaced = true;
                    }
                }
            }
        }
        return new AfterAiOutcome(response, replaced, false, audit, extractions);
    }

    /**
     * The agent's output filters for one turn, chained in priority order. The context is the turn's before_ai
     * context (with the user message as stored).
     */
    public OutputFilterChain outputFilters(HookContext context) {
        HookContext base = context.forHook(Hook.AFTER_AI, clock.instant());
        List<OutputFilterChain.Stage> stages = new ArrayList<>();
        for (Module module : modulesFor(base.agent())) {
            ModuleDescriptor d = module.descriptor();
            try {
                OutputFilter filter = module.outputFilter(base);
                if (filter != null && filter != OutputFilter.NONE) {
                    stages.add(new OutputFilterChain.Stage(d, filter));
                }
            } catch (RuntimeException e) {
                ModuleCall.failed(d, base, ModuleFailures.Kind.THREW, e, failures);
                if (d.failClosed()) {
                    return OutputFilterChain.withholding(d, safeResponse(d));
                }
            }
        }
        return new OutputFilterChain(stages, base, failures);
    }

    static String safeResponse(ModuleDescriptor d) {
        return d.safeResponse() == null || d.safeResponse().isBlank() ? SAFE_RESPONSE : d.safeResponse();
    }

    private java.util.stream.Stream<Module> handlers(HookContext.Agent agent, Hook hook) {
        return modulesFor(agent).stream().filter(m -> m.descriptor().handles(hook));
    }

    /** Adds a result's audit notes (original defaulting to what the module saw) and extractions. */
    private static void collect(
            ModuleDescriptor d,
            HookResult result,
            String seen,
            List<ModuleAudit> audit,
            List<ModuleExtraction> extractions) {
        result.audit().forEach(a -> audit.add(new ModuleAudit(d.id(), a.withOriginal(seen))));
        result.extractions().forEach(x -> extractions.add(new ModuleExtraction(d.id(), x)));
    }

    private CompletableFuture<Void> async(HookContext context, String messageId) {
        List<Module> handlers =
                handlers(context.agent(), context.request().hook()).toList();
        if (handlers.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofVirtual().name("hook-" + context.request().hook().wireName()).start(TurnTracing.propagate(() -> {
            try {
                List<ExtractionRecord> extracted = new ArrayList<>();
                for (Module module : handlers) {
                    if (ModuleCall.run(module, context, failures, activity)
                            instanceof ModuleCall.Attempt.Ok(HookResult result)) {
                        for (HookResult.Extraction x : result.extractions()) {
                            extracted.add(new ExtractionRecord(
                                    Ids.newId(),
                                    context.session().id(),
                                    messageId,
                                    module.descriptor().id(),
                                    x.type(),
                                    x.data(),
                                    clock.instant()));
                        }
                    }
                }
                if (!extracted.isEmpty()) {
                    auditStore.saveExtractions(extracted);
                }
            } catch (RuntimeException e) {
                log.warn(
                        "{} hooks of request {} (session {}) could not finish: {}",
                        context.request().hook(),
                        context.request().requestId(),
                        context.session().id(),
                        e.toString());
            } finally {
                done.complete(null);
            }
        }));
        return done;
    }
}
