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
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.hook.TurnHooks;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolExecutor;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
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
 * <p>Blocking: call it on a virtual thread. The sink is called only from the calling thread, in order.
 */
public final class TurnRunner {
    private static final Logger log = LoggerFactory.getLogger(TurnRunner.class);

    private final ConversationStore store;
    private final ModelResolver models;
    private final ToolCatalog tools;
    private final TokenCounter tokens;
    private final CostCalculator costs;
    private final Clock clock;
    private final TurnHooks hooks;
    private final ContextBuilder contexts;
    private final ModelStreamer streamer = new ModelStreamer();
    private final ToolDispatcher dispatcher;
    private final TurnRecorder recorder;
    private final Function<TurnRequest, PromptSections> sections;

    public TurnRunner(
            ConversationStore store,
            ModelResolver models,
            ToolCatalog tools,
            TokenCounter tokens,
            CostCalculator costs,
            Clock clock,
            TurnHooks hooks) {
        this(store, models, tools, tokens, costs, clock, hooks, request -> PromptSections.NONE);
    }

    private TurnRunner(
            ConversationStore store,
            ModelResolver models,
            ToolCatalog tools,
            TokenCounter tokens,
            CostCalculator costs,
            Clock clock,
            TurnHooks hooks,
            Function<TurnRequest, PromptSections> sections) {
        this.store = Objects.requireNonNull(store, "store");
        this.models = Objects.requireNonNull(models, "models");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
        this.sections = Objects.requireNonNull(sections, "sections");
        this.contexts = new ContextBuilder(store, tokens, clock);
        this.dispatcher = new ToolDispatcher(new ToolExecutor(tools, clock), clock);
        this.recorder = new TurnRecorder(store, clock);
    }

    /**
     * A runner that adds assignment context and constraints (resolved by the caller, e.g. from the session's
     * assignment) to the system prompt of every turn.
     */
    public TurnRunner withPromptSections(Function<TurnRequest, PromptSections> sectionsForTurn) {
        return new TurnRunner(store, models, tools, tokens, costs, clock, hooks, sectionsForTurn);
    }

    /** Runs the turn to its end and returns how it ended; the same end is the last event the sink receives. */
    public TurnOutcome run(TurnRequest request, Consumer<TurnEvent> eventSink) {
        long startedNanos = System.nanoTime();
        Consumer<TurnEvent> sink = new GuardedSink(eventSink, request);
        sink.accept(new TurnEvent.Started(Ids.newId(), request.session().id(), request.requestId()));
        List<String> guidance = beforeAi(request);

        Message user;
        try {
            user = recorder.saveUser(request);
        } catch (RuntimeException e) {
            log.error("request {}: could not save the user message", request.requestId(), e);
            return end(sink, new TurnOutcome(null, null, List.of(), zeroUsage(), null, TurnFailures.internal()));
        }

        TurnProgress progress = TurnProgress.resume(TurnState.start(List.of()));
        try {
            ModelBinding binding =
                    models.resolve(request.agent().model(), request.agent().fallbackModels());
            List<ToolSpec> specs = tools.specsFor(request.agent());
            PromptSections promptSections = sectionsFor(request).withGuidance(guidance);
            BuiltContext context = contexts.build(new ContextRequest(
                    request.principal(), request.agent(), request.session().id(), user, promptSections, specs));
            log.debug(
                    "request {}: context of {} history messages, {} of {} history tokens",
                    request.requestId(),
                    context.historyMessages(),
                    context.historyTokens(),
                    context.historyBudget());
            progress = TurnProgress.resume(TurnState.start(context.messages()));
            return loop(request, user, binding, specs, progress, startedNanos, sink);
        } catch (ModelFailure failure) {
            boolean cancelled = request.cancellation().isCancelled() || failure.kind() == ModelFailure.Kind.CANCELLED;
            if (!cancelled) {
                log.warn(
                        "request {}: model call failed ({}): {}",
                        request.requestId(),
                        failure.kind(),
                        failure.getMessage());
            }
            return cancelled
                    ? fail(request, user, progress, MessageStatus.CANCELLED, TurnFailures.cancelled(), sink)
                    : fail(request, user, progress, MessageStatus.INCOMPLETE, TurnFailures.of(failure), sink);
        } catch (TurnCancelled cancelled) {
            return fail(request, user, progress, MessageStatus.CANCELLED, TurnFailures.cancelled(), sink);
        } catch (RuntimeException e) {
            if (request.cancellation().isCancelled()) {
                return fail(request, user, progress, MessageStatus.CANCELLED, TurnFailures.cancelled(), sink);
            }
            log.error("request {}: turn failed", request.requestId(), e);
            return fail(request, user, progress, MessageStatus.INCOMPLETE, TurnFailures.internal(), sink);
        }
    }

    private TurnOutcome loop(
            TurnRequest request,
            Message user,
            ModelBinding binding,
            List<ToolSpec> specs,
            TurnProgress progress,
            long startedNanos,
            Consumer<TurnEvent> sink) {
        TurnLimits limits = request.agent().limits();
        while (true) {
            checkCancelled(request);
            progress.iteration++;
            Duration llmTimeout = bounded(limits.llmTimeout(), limits, startedNanos);
            ModelRequest modelRequest =
                    new ModelRequest(binding.model(), progress.messages, specs, llmTimeout, request.cancellation());
            ModelStreamer.ModelCall call = streamer.stream(binding, modelRequest, progress.answer, sink);
            ModelReply reply = call.reply();
            progress.model = reply.model() == null || reply.model().isBlank() ? binding.model() : reply.model();
            progress.usage.add(usageOf(request, binding, reply, call.latencyMs()));

            if (!reply.wantsTools()) {
                return finish(request, user, progress, startedNanos, sink);
            }
            if (progress.iteration >= limits.maxIterations()) {
                log.info(
                        "request {}: stopped after {} model calls, the model still wanted tools",
                        request.requestId(),
                        progress.iteration);
                ModelStreamer.emitText(iterationLimitNote(progress, limits.maxIterations()), progress.answer, sink);
                return finish(request, user, progress, startedNanos, sink);
            }
            Duration toolTimeout = bounded(limits.toolTimeout(), limits, startedNanos);
            List<ToolCallOutcome> outcomes = dispatcher.dispatch(
                    reply.toolCalls(), request, progress.toolCalls.size(), toolTimeout, progress.cache, sink);
            progress.messages.add(new ChatMessage.Assistant(reply.text(), reply.toolCalls()));
            outcomes.forEach(o -> progress.messages.add(o.toMessage()));
            progress.toolCalls.addAll(outcomes);
        }
    }

    private TurnOutcome finish(
            TurnRequest request, Message user, TurnProgress progress, long startedNanos, Consumer<TurnEvent> sink) {
        String answer = afterAi(request, progress.answer.toString());
        TurnRecorder.Recorded recorded = recorder.complete(request, progress, answer, MessageStatus.COMPLETE);
        TurnEvent.Usage usage = progress.totalUsage();
        long latencyMs = (System.nanoTime() - startedNanos) / 1_000_000;
        TurnEvent.Done done =
                new TurnEvent.Done(recorded.message().id(), progress.model, usage, latencyMs, progress.toolNames());
        return end(sink, new TurnOutcome(user, recorded.message(), recorded.toolCalls(), usage, progress.model, done));
    }

    /** Saves what the turn got to, with the failure's status, and reports the failure. */
    private TurnOutcome fail(
            TurnRequest request,
            Message user,
            TurnProgress progress,
            MessageStatus status,
            TurnEvent.Failed failed,
            Consumer<TurnEvent> sink) {
        Message assistant = null;
        List<ToolCallRecord> calls = TurnRecorder.unlinked(request, progress.toolCalls);
        try {
            TurnRecorder.Recorded recorded = recorder.complete(request, progress, progress.answer.toString(), status);
            assistant = recorded.message();
            calls = recorded.toolCalls();
        } catch (RuntimeException e) {
            log.error("request {}: could not save the {} turn", request.requestId(), status.wireName(), e);
        }
        return end(sink, new TurnOutcome(user, assistant, calls, progress.totalUsage(), progress.model, failed));
    }

    private static TurnOutcome end(Consumer<TurnEvent> sink, TurnOutcome outcome) {
        sink.accept(outcome.terminal());
        return outcome;
    }

    private List<String> beforeAi(TurnRequest request) {
        try {
            List<String> guidance = hooks.beforeAi(request);
            return guidance == null ? List.of() : guidance;
        } catch (RuntimeException e) {
            // hooks fail open: a broken module must not take the chat down
            log.warn("request {}: before_ai hook failed: {}", request.requestId(), e.toString());
            return List.of();
        }
    }

    private String afterAi(TurnRequest request, String answer) {
        try {
            String replaced = hooks.afterAi(request, answer);
            return replaced == null ? answer : replaced;
        } catch (RuntimeException e) {
            log.warn("request {}: after_ai hook failed: {}", request.requestId(), e.toString());
            return answer;
        }
    }

    private PromptSections sectionsFor(TurnRequest request) {
        PromptSections s = sections.apply(request);
        return s == null ? PromptSections.NONE : s;
    }

    private UsageRecord usageOf(TurnRequest request, ModelBinding binding, ModelReply reply, long latencyMs) {
        String provider =
                reply.provider() != null ? reply.provider() : binding.gateway().provider();
        String model = reply.model() == null || reply.model().isBlank() ? binding.model() : reply.model();
        BigDecimal cost;
        try {
            cost = costs.cost(provider, model, reply.usage());
        } catch (RuntimeException e) {
            log.warn("no price for {}:{}: {}", provider, model, e.toString());
            cost = BigDecimal.ZERO;
        }
        return new UsageRecord(
                Ids.newId(),
                request.principal().tenantId(),
                request.principal().userId(),
                request.session().id(),
                null,
                provider,
                model,
                reply.usage().inputTokens(),
                reply.usage().outputTokens(),
                cost,
                latencyMs,
                clock.instant());
    }

    /** A per-call timeout that also respects what is left of the whole request's time. */
    private static Duration bounded(Duration perCall, TurnLimits limits, long startedNanos) {
        if (limits.requestTimeout() == null) {
            return perCall;
        }
        Duration left = limits.requestTimeout().minusNanos(System.nanoTime() - startedNanos);
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
                                .map(o -> o.request().name() + " (" + o.state().wireName() + ")")
                                .collect(Collectors.joining(", "))
                        + ".";
        return prefix + "I wasn't able to finish this within " + steps + ". Here's where I got to: " + gotTo;
    }

    private static TurnEvent.Usage zeroUsage() {
        return new TurnEvent.Usage(0, 0, BigDecimal.ZERO);
    }

    /** Unwinds the loop when the turn's cancellation fires between model calls. */
    private static final class TurnCancelled extends RuntimeException {
        TurnCancelled() {
            super("turn cancelled", null, false, false);
        }
    }
}
