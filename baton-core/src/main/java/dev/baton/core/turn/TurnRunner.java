package dev.baton.core.turn;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.context.BuiltContext;
import dev.baton.core.context.ContextBuilder;
import dev.baton.core.context.ContextRequest;
import dev.baton.core.context.PromptSections;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.hook.AfterAiOutcome;
import dev.baton.core.hook.BeforeAiOutcome;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.ModuleAudit;
import dev.baton.core.hook.ModuleExtraction;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolExecutor;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one turn (DESIGN §4): saves the user message, builds the context, then asks the model and runs the tools it
 * calls until it answers or a limit is reached, and saves the answer with its tool calls and usage. Every way a turn
 * can end is reported as exactly one terminal event — {@link TurnEvent.Done} or {@link TurnEvent.Failed} — and
 * leaves the conversation consistent: a failed or cancelled turn keeps its partial answer with that status.
 *
 * <p>The loop's state between steps is plain data, a {@link TurnState}, reported after every model call and every
 * step of tool calls to the listener of {@link #withCheckpoints}. Each step's tool calls are written as soon as they
 * have finished ({@link ConversationStore#recordToolCalls}), so a turn that never ends still leaves them in the
 * audit trail; the end of the turn links them to the answer.
 *
 * <p>Human approval ({@link #withApprovals}): a call the {@link ToolApprovals} hold is not run; the reply's other
 * calls run, the state is stored through {@link ToolApprovals#pause}, and the turn ends with
 * {@link TurnEvent.AwaitingApproval}. A request carrying a {@link TurnResume} goes on from that state — on any
 * instance: the output filters are restored ({@link OutputFilterChain#restore}), the decided calls run or are refused,
 * and the loop continues where it stopped (no hooks run again before the model; after_ai runs at the end).
 * {@link #closePaused} ends a paused turn without the model.
 *
 * <p>Blocking: call it on a virtual thread. The sink is called only from the calling thread, in order.
 */
public final class TurnRunner {
    private static final Logger log = LoggerFactory.getLogger(TurnRunner.class);
    private static final Consumer<TurnCheckpoint> NO_CHECKPOINTS = checkpoint -> {};
    /** How often usage that could not be written with its turn is tried again. */
    private static final Duration USAGE_RETRY = Duration.ofSeconds(1);

    private final ConversationStore store;
    private final ModelResolver models;
    private final ToolCatalog tools;
    private final TokenCounter tokens;
    private final CostCalculator costs;
    private final Clock clock;
    private final ModulePipeline modules;
    private final ContextBuilder contexts;
    private final ModelStreamer streamer = new ModelStreamer();
    private final CallPricing pricing;
    private final ToolDispatcher dispatcher;
    private final TurnRecorder recorder;
    private final Function<TurnRequest, PromptSections> sections;
    private final Consumer<TurnCheckpoint> checkpoints;
    private final ToolApprovals approvals;
    private final TurnPauses pauses;
    private final PendingUsage pendingUsage;

    public TurnRunner(
            ConversationStore store,
            ModelResolver models,
            ToolCatalog tools,
            TokenCounter tokens,
            CostCalculator costs,
            Clock clock,
            ModulePipeline modules) {
        this(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                request -> PromptSections.NONE,
                NO_CHECKPOINTS,
                ToolApprovals.NONE,
                new PendingUsage(store, USAGE_RETRY));
    }

    private TurnRunner(
            ConversationStore store,
            ModelResolver models,
            ToolCatalog tools,
            TokenCounter tokens,
            CostCalculator costs,
            Clock clock,
            ModulePipeline modules,
            Function<TurnRequest, PromptSections> sections,
            Consumer<TurnCheckpoint> checkpoints,
            ToolApprovals approvals,
            PendingUsage pendingUsage) {
        this.store = Objects.requireNonNull(store, "store");
        this.models = Objects.requireNonNull(models, "models");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.modules = Objects.requireNonNull(modules, "modules");
        this.sections = Objects.requireNonNull(sections, "sections");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.approvals = Objects.requireNonNull(approvals, "approvals");
        this.pendingUsage = Objects.requireNonNull(pendingUsage, "pendingUsage");
        this.contexts = new ContextBuilder(store, tokens, clock);
        this.dispatcher = new ToolDispatcher(new ToolExecutor(tools, clock), tools, approvals, clock);
        this.recorder = new TurnRecorder(store, clock);
        this.pauses = new TurnPauses(approvals, recorder, modules, clock);
        this.pricing = new CallPricing(costs, clock);
    }

    /**
     * A runner that adds assignment context and constraints (resolved by the caller, e.g. from the session's
     * assignment) to the system prompt of every turn.
     */
    public TurnRunner withPromptSections(Function<TurnRequest, PromptSections> sectionsForTurn) {
        return new TurnRunner(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                sectionsForTurn,
                checkpoints,
                approvals,
                pendingUsage);
    }

    /**
     * A runner that reports every turn's {@link TurnState} after each model call and after each step of tool calls
     * (once that step's tool calls are written). The listener runs on the turn's thread, before the turn goes on:
     * keep it short. If it throws, the failure is logged and the turn goes on.
     */
    public TurnRunner withCheckpoints(Consumer<TurnCheckpoint> listener) {
        return new TurnRunner(
                store, models, tools, tokens, costs, clock, modules, sections, listener, approvals, pendingUsage);
    }

    /**
     * A runner whose tool calls wait for the user's approval when {@code gate} holds them, and which can go on with a
     * paused turn (a request with a {@link TurnResume}).
     */
    public TurnRunner withApprovals(ToolApprovals gate) {
        return new TurnRunner(
                store, models, tools, tokens, costs, clock, modules, sections, checkpoints, gate, pendingUsage);
    }

    /**
     * Ends the paused turn of {@code request.resume()} without asking the model again: the held calls are stored as
     * refused by their decisions, and the answer so far with {@code status}, with the turn's tool calls and usage. No
     * events are sent; the outcome's terminal is {@code reason} and it has no user message.
     */
    public TurnOutcome closePaused(TurnRequest request, MessageStatus status, TurnEvent.Failed reason) {
        if (request.resume() == null) {
            throw new IllegalArgumentException("not a paused turn");
        }
        return pauses.close(request, status, reason);
    }

    /** A runner whose usage kept while the store was unavailable is retried every {@code every} (tests). */
    TurnRunner withUsageRetry(Duration every) {
        return new TurnRunner(
                store,
                models,
                tools,
                tokens,
                costs,
                clock,
                modules,
                sections,
                checkpoints,
                approvals,
                new PendingUsage(store, every));
    }

    /**
     * How many usage rows of finished model calls wait to be written: their turn ended while the store was
     * unavailable, and they are written as soon as it is back (see {@link ConversationStore#recordUsage}).
     */
    public int pendingUsageRows() {
        return pendingUsage.size();
    }

    /** Runs the turn to its end and returns how it ended; the same end is the last event the sink receives. */
    public TurnOutcome run(TurnRequest request, Consumer<TurnEvent> eventSink) {
        if (request.resume() != null) {
            return resume(request, eventSink);
        }
        long startedNanos = System.nanoTime();
        Instant startedAt = clock.instant();
        Consumer<TurnEvent> sink = new GuardedSink(eventSink, request);
        String turnId = Ids.newId();
        sink.accept(new TurnEvent.Started(turnId, request.session().id(), request.requestId()));

        // the user message's id is fixed before the hooks run, so on_message extractions can point at it
        String userMessageId = Ids.newId();
        List<Message> recent;
        BeforeAiOutcome.Proceed proceed;
        HookContext hookContext;
        try {
            recent = contexts.recentHistory(
                    request.principal().userId(),
                    request.session().id(),
                    request.agent().limits());
            hookContext = TurnHookContexts.of(request, recent, clock.instant());
            modules.onMessage(hookContext, userMessageId);
            switch (modules.beforeAi(hookContext)) {
                case BeforeAiOutcome.Blocked blocked -> {
                    return end(sink, BlockedTurn.record(recorder, request, userMessageId, blocked, startedNanos, sink));
                }
                case BeforeAiOutcome.Proceed p -> proceed = p;
            }
        } catch (StoreUnavailableException e) {
            log.warn("request {}: could not prepare the turn: {}", request.requestId(), e.getMessage());
            return end(
                    sink,
                    new TurnOutcome(null, null, List.of(), zeroUsage(), null, TurnFailures.databaseUnavailable(e)));
        } catch (RuntimeException e) {
            log.error("request {}: could not prepare the turn", request.requestId(), e);
            return end(sink, new TurnOutcome(null, null, List.of(), zeroUsage(), null, TurnFailures.internal()));
        }

        Message user;
        try {
            user = recorder.saveUser(
                    request,
                    userMessageId,
                    proceed.userMessage(),
                    MessageStatus.COMPLETE,
                    proceed.audit(),
                    proceed.extractions());
        } catch (StoreUnavailableException e) {
            log.warn("request {}: could not save the user message: {}", request.requestId(), e.getMessage());
            return end(
                    sink,
                    new TurnOutcome(null, null, List.of(), zeroUsage(), null, TurnFailures.databaseUnavailable(e)));
        } catch (RuntimeException e) {
            log.error("request {}: could not save the user message", request.requestId(), e);
            return end(sink, new TurnOutcome(null, null, List.of(), zeroUsage(), null, TurnFailures.internal()));
        }

        HookContext turnContext = hookContext.withCurrentMessage(proceed.userMessage());
        TurnProgress progress = TurnProgress.start(
                turnId,
                request.session().id(),
                user.id(),
                request.agent().limits().requestTimeout(),
                startedNanos,
                startedAt);
        AnswerStream out = null;
        try {
            // a turn that goes on from a stored TurnState (TurnProgress.resume) would restore the new chain here:
            // filters.restore(progress.filters), then skip the context and run state.pendingToolCalls() first
            out = new AnswerStream(
                    progress.answer,
                    modules.outputFilters(turnContext),
                    modules.rewritesAnswers(request.agent()),
                    sink);
            ModelBinding binding;
            try {
                binding =
                        models.resolve(request.agent().model(), request.agent().fallbackModels());
            } catch (IllegalArgumentException e) {
                // the server checks every agent's model at start; an embedding that did not gets a clear code
                log.error(
                        "request {}: agent {} has no usable model: {}",
                        request.requestId(),
                        request.agent().id(),
                        e.getMessage());
                return fail(
                        request,
                        user,
                        progress,
                        out,
                        MessageStatus.INCOMPLETE,
                        TurnFailures.modelNotConfigured(),
                        sink);
            }
            List<ToolSpec> specs = tools.specsFor(request.agent());
            PromptSections promptSections = sectionsFor(request).withGuidance(proceed.guidance());
            BuiltContext context = contexts.build(
                    new ContextRequest(
                            request.principal(),
                            request.agent(),
                            request.session().id(),
                            user,
                            promptSections,
                            specs),
                    recent);
            log.debug(
                    "request {}: context of {} history messages, {} of {} history tokens",
                    request.requestId(),
                    context.historyMessages(),
                    context.historyTokens(),
                    context.historyBudget());
            progress.messages.addAll(context.messages());
            return loop(request, user, binding, specs, progress, out, turnContext, startedNanos, sink);
        } catch (RuntimeException e) {
            return failed(e, request, user, progress, out, sink);
        }
    }

    /** Goes on with a paused turn: the decided calls first, then the loop where it stopped. */
    private TurnOutcome resume(TurnRequest request, Consumer<TurnEvent> eventSink) {
        long startedNanos = System.nanoTime();
        Consumer<TurnEvent> sink = new GuardedSink(eventSink, request);
        TurnResume paused = request.resume();
        TurnState state = paused.state();
        sink.accept(new TurnEvent.Started(state.turnId(), request.session().id(), request.requestId()));
        TurnProgress progress = TurnProgress.resume(state, clock);
        String userId = request.principal().userId();
        Message user = store.recentMessages(userId, request.session().id(), 1).stream()
                .filter(m -> m.id().equals(state.userMessageId()))
                .findFirst()
                .orElseGet(() -> new Message(
                        state.userMessageId(),
                        request.session().id(),
                        userId,
                        0,
                        dev.baton.core.conversation.MessageRole.USER,
                        request.userContent(),
                        MessageStatus.COMPLETE,
                        null,
                        clock.instant()));
        AnswerStream out = null;
        try {
            List<Message> history =
                    contexts
                            .recentHistory(
                                    userId,
                                    request.session().id(),
                                    request.agent().limits())
                            .stream()
                            .filter(m -> !m.id().equals(state.userMessageId()))
                            .toList();
            HookContext turnContext =
                    TurnHookContexts.of(request, history, clock.instant()).withCurrentMessage(request.userContent());
            out = new AnswerStream(
                    progress.answer,
                    modules.outputFilters(turnContext),
                    modules.rewritesAnswers(request.agent()),
                    sink);
            out.filters().restore(state.filters());
            ModelBinding binding =
                    models.resolve(request.agent().model(), request.agent().fallbackModels());
            List<ToolSpec> specs = tools.specsFor(request.agent());
            TurnLimits limits = request.agent().limits();
            Duration toolTimeout = bounded(limits.toolTimeout(), limits, progress);
            Duration timeLeft =
                    limits.requestTimeout() == null ? null : bounded(limits.requestTimeout(), limits, progress);
            List<String> toRun = paused.decisions().stream()
                    .filter(d -> d instanceof TurnResume.ToolDecision.Approve)
                    .map(TurnResume.ToolDecision::recordId)
                    .toList();
            if (!toRun.isEmpty()) approvals.runStarting(state, toRun);
            List<ToolCallOutcome> outcomes =
                    dispatcher.decide(paused.decisions(), request, toolTimeout, timeLeft, progress.cache, sink);
            List<TurnState.ToolCall> decided = new ArrayList<>(outcomes.size());
            List<TurnState.ToolCall> unrecorded = new ArrayList<>(outcomes.size());
            for (int i = 0; i < outcomes.size(); i++) {
                TurnResume.ToolDecision decision = paused.decisions().get(i);
                TurnState.ToolCall call = new TurnState.ToolCall(decision.recordId(), outcomes.get(i));
                decided.add(call);
                // a call an earlier attempt at this turn ran has its row already
                if (!(decision instanceof TurnResume.ToolDecision.Settled settled && settled.recorded())) {
                    unrecorded.add(call);
                }
            }
            recorder.record(request, unrecorded);
            progress.toolCalls.addAll(decided);
            progress.addToolResults(
                    outcomes.stream().map(ToolCallOutcome::toMessage).toList());
            checkpoint(request, TurnCheckpoint.Step.TOOL_CALLS, progress, out);
            return loop(request, user, binding, specs, progress, out, turnContext, startedNanos, sink);
        } catch (RuntimeException e) {
            return failed(e, request, user, progress, out, sink);
        }
    }

    /** Ends the turn a failure interrupted: cancelled, a model failure, or anything unexpected. */
    private TurnOutcome failed(
            RuntimeException e,
            TurnRequest request,
            Message user,
            TurnProgress progress,
            AnswerStream out,
            Consumer<TurnEvent> sink) {
        TurnFailures.Interruption why = TurnFailures.interruption(e, request, progress);
        return fail(request, user, progress, out, why.status(), why.failure(), sink);
    }

    private TurnOutcome loop(
            TurnRequest request,
            Message user,
            ModelBinding binding,
            List<ToolSpec> specs,
            TurnProgress progress,
            AnswerStream out,
            HookContext turnContext,
            long startedNanos,
            Consumer<TurnEvent> sink) {
        TurnLimits limits = request.agent().limits();
        while (true) {
            checkCancelled(request);
            progress.iteration++;
            Duration llmTimeout = bounded(limits.llmTimeout(), limits, progress);
            ModelRequest modelRequest = new ModelRequest(
                    binding.model(),
                    progress.messages,
                    specs,
                    llmTimeout,
                    request.cancellation(),
                    request.agent().temperature());
            ModelStreamer.ModelCall call = streamer.stream(binding, modelRequest, out);
            ModelReply reply = call.reply();
            progress.model = reply.model() == null || reply.model().isBlank() ? binding.model() : reply.model();
            progress.usage.add(pricing.usageOf(request, binding, reply, call.latencyMs()));
            progress.messages.add(new ChatMessage.Assistant(reply.text(), reply.toolCalls()));
            checkpoint(request, TurnCheckpoint.Step.MODEL_CALL, progress, out);

            if (!reply.wantsTools()) {
                return finish(request, user, progress, out, turnContext, startedNanos, sink, TurnEvent.Done.COMPLETED);
            }
            if (progress.iteration >= limits.maxIterations()) {
                log.info(
                        "request {}: stopped after {} model calls, the model still wanted tools",
                        request.requestId(),
                        progress.iteration);
                out.text(iterationLimitNote(progress, limits.maxIterations()));
                out.endOfCall();
                return finish(
                        request, user, progress, out, turnContext, startedNanos, sink, TurnEvent.Done.MAX_ITERATIONS);
            }
            Duration toolTimeout = bounded(limits.toolTimeout(), limits, progress);
            // caps tools whose own timeout is longer than the turn's default
            Duration timeLeft =
                    limits.requestTimeout() == null ? null : bounded(limits.requestTimeout(), limits, progress);
            ToolDispatcher.Dispatched step = dispatcher.dispatchOrHold(
                    reply.toolCalls(), request, progress.toolCalls.size(), toolTimeout, timeLeft, progress.cache, sink);
            progress.toolCalls.addAll(recorder.recordToolCalls(request, step.outcomes()));
            step.outcomes().forEach(o -> progress.messages.add(o.toMessage()));
            if (!step.held().isEmpty()) {
                return end(sink, pauses.pause(request, user, progress, out, step.held(), startedNanos, sink));
            }
            checkpoint(request, TurnCheckpoint.Step.TOOL_CALLS, progress, out);
        }
    }

    /** Reports the turn's state after a step; a listener that throws is logged and otherwise ignored. */
    private void checkpoint(TurnRequest request, TurnCheckpoint.Step step, TurnProgress progress, AnswerStream out) {
        if (checkpoints == NO_CHECKPOINTS) {
            return;
        }
        try {
            checkpoints.accept(new TurnCheckpoint(
                    request.requestId(), step, progress.snapshot(out.filters().snapshot())));
        } catch (RuntimeException e) {
            log.warn("request {}: checkpoint listener failed after {}: {}", request.requestId(), step, e.toString());
        }
    }

    /**
     * Ends a turn the model answered: output filters' and after_ai modules' results, then the answer is saved. A
     * fail-closed output filter that failed, or an after_ai block, replaces the answer and is reported as
     * {@link TurnEvent.Blocked}.
     *
     * @param stopReason why the loop stopped, for {@link TurnEvent.Done#stopReason()}
     */
    private TurnOutcome finish(
            TurnRequest request,
            Message user,
            TurnProgress progress,
            AnswerStream out,
            HookContext turnContext,
            long startedNanos,
            Consumer<TurnEvent> sink,
            String stopReason) {
        OutputFilterChain filters = out.filters();
        List<ModuleAudit> audit = new ArrayList<>(filters.audit());
        List<ModuleExtraction> extractions = new ArrayList<>(filters.extractions());
        String answer;
        String reason = stopReason;
        if (filters.safeResponse().isPresent()) {
            reason = TurnEvent.Done.BLOCKED;
            answer = filters.safeResponse().get();
            log.info(
                    "request {}: answer withheld, output filter of {} failed closed",
                    request.requestId(),
                    filters.withheldBy());
            sink.accept(new TurnEvent.Blocked(answer));
        } else {
            AfterAiOutcome after = modules.afterAi(turnContext.withResponse(out.answer()));
            audit.addAll(after.audit());
            extractions.addAll(after.extractions());
            answer = after.response();
            if (after.blocked()) {
                reason = TurnEvent.Done.BLOCKED;
                log.info("request {}: answer blocked after the model", request.requestId());
                sink.accept(new TurnEvent.Blocked(answer));
            } else {
                out.release(answer);
            }
        }
        TurnRecorder.Recorded recorded =
                recorder.complete(request, progress, answer, MessageStatus.COMPLETE, audit, extractions);
        TurnEvent.Usage usage = progress.totalUsage();
        long latencyMs = (System.nanoTime() - startedNanos) / 1_000_000;
        TurnEvent.Done done = new TurnEvent.Done(
                recorded.message().id(), progress.model, usage, latencyMs, progress.toolNames(), reason);
        return end(sink, new TurnOutcome(user, recorded.message(), recorded.toolCalls(), usage, progress.model, done));
    }

    /** Saves what the turn got to, with the failure's status, and reports the failure. */
    private TurnOutcome fail(
            TurnRequest request,
            Message user,
            TurnProgress progress,
            AnswerStream out,
            MessageStatus status,
            TurnEvent.Failed failed,
            Consumer<TurnEvent> sink) {
        Message assistant = null;
        List<ToolCallRecord> calls = TurnRecorder.unlinked(request, progress.toolCalls);
        // what the client saw: text held back by filters or for after_ai was never shown and is not kept
        String shown = out == null ? progress.answer.toString() : out.shown();
        try {
            TurnRecorder.Recorded recorded = recorder.complete(request, progress, shown, status);
            assistant = recorded.message();
            calls = recorded.toolCalls();
        } catch (StoreUnavailableException e) {
            log.warn(
                    "request {}: could not save the {} turn: {}",
                    request.requestId(),
                    status.wireName(),
                    e.getMessage());
            pendingUsage.keep(request.requestId(), progress.usage, e);
        } catch (RuntimeException e) {
            log.error("request {}: could not save the {} turn", request.requestId(), status.wireName(), e);
            pendingUsage.keep(request.requestId(), progress.usage, e);
        }
        return end(sink, new TurnOutcome(user, assistant, calls, progress.totalUsage(), progress.model, failed));
    }

    static TurnOutcome end(Consumer<TurnEvent> sink, TurnOutcome outcome) {
        sink.accept(outcome.terminal());
        return outcome;
    }

    private PromptSections sectionsFor(TurnRequest request) {
        PromptSections s = sections.apply(request);
        return s == null ? PromptSections.NONE : s;
    }

    /** A per-call timeout that also respects what is left of the whole request's time. */
    private static Duration bounded(Duration perCall, TurnLimits limits, TurnProgress progress) {
        Duration left = progress.timeLeft();
        if (left == null) {
            return perCall;
        }
        if (left.isNegative() || left.isZero()) {
            throw new ModelFailure(ModelFailure.Kind.TIMEOUT, "the turn used up its " + limits.requestTimeout());
        }
        return perCall.compareTo(left) <= 0 ? perCall : left;
    }

    private static void checkCancelled(TurnRequest request) {
        if (request.cancellation().isCancelled()) {
            throw new TurnCancelled();
        }
    }

    private static String iterationLimitNote(TurnProgress progress, int maxIterations) {
        String prefix = progress.answer.isEmpty() ? "" : ModelStreamer.PARAGRAPH;
        String steps = maxIterations == 1 ? "1 step" : maxIterations + " steps";
        String gotTo = progress.toolCalls.isEmpty()
                ? "I had not completed any actions yet."
                : "I used "
                        + progress.toolCalls.stream()
                                .map(TurnState.ToolCall::outcome)
                                .map(o -> o.request().name() + " (" + o.state().wireName() + ")")
                                .collect(Collectors.joining(", "))
                        + ".";
        return prefix + "I wasn't able to finish this within " + steps + ". Here's where I got to: " + gotTo;
    }

    static TurnEvent.Usage zeroUsage() {
        return new TurnEvent.Usage(0, 0, 0, BigDecimal.ZERO);
    }

    /** Unwinds the loop when the turn's cancellation fires between model calls. */
    static final class TurnCancelled extends RuntimeException {
        TurnCancelled() {
            super("turn cancelled", null, false, false);
        }
    }
}
