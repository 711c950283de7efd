package dev.baton.core.turn;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.context.ContextBuilder;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCatalog;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Goes on with a paused turn (a request with a {@link TurnResume}), on any instance: the calls the user decided run
 * or are refused first, then the steps go on where the turn stopped. No hooks run again before the model; after_ai
 * runs at the end.
 */
final class TurnResumption {
    private final ConversationStore store;
    private final ContextBuilder contexts;
    private final ModulePipeline modules;
    private final ModelResolver models;
    private final ToolCatalog tools;
    private final ToolApprovals approvals;
    private final ToolDispatcher dispatcher;
    private final TurnRecorder recorder;
    private final TurnSteps steps;
    private final TurnPauses pauses;
    private final TurnEnding ending;
    private final Clock clock;

    TurnResumption(
            ConversationStore store,
            ContextBuilder contexts,
            ModulePipeline modules,
            ModelResolver models,
            ToolCatalog tools,
            ToolApprovals approvals,
            ToolDispatcher dispatcher,
            TurnRecorder recorder,
            TurnSteps steps,
            TurnPauses pauses,
            TurnEnding ending,
            Clock clock) {
        this.store = store;
        this.contexts = contexts;
        this.modules = modules;
        this.models = models;
        this.tools = tools;
        this.approvals = approvals;
        this.dispatcher = dispatcher;
        this.recorder = recorder;
        this.steps = steps;
        this.pauses = pauses;
        this.ending = ending;
        this.clock = clock;
    }

    /** @param sink the turn's events, already guarded */
    TurnOutcome resume(TurnRequest request, Consumer<TurnEvent> sink) {
        long startedNanos = System.nanoTime();
        TurnResume paused = request.resume();
        TurnState state = paused.state();
        sink.accept(
                new TurnEvent.Started(state.turnId(), request.session().id(), request.requestId(), state.answerText()));
        TurnProgress progress = TurnProgress.resume(state, clock);
        progress.fence = paused.fence();
        String userId = request.principal().userId();
        Message user = userMessage(request, state);
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
            List<ToolSpec> specs = tools.specsFor(request.agent(), request.principal());
            List<TurnResume.ToolDecision> decided = paused.decisions().stream()
                    .filter(d -> !(d instanceof TurnResume.ToolDecision.Ask))
                    .toList();
            runDecidedCalls(request, paused.state(), decided, progress, out, sink);
            List<ToolApprovals.Held> asked = asked(request, paused, progress);
            if (!asked.isEmpty()) {
                // the calls left pending are the asked ones: the pause holds exactly them
                return TurnEnding.end(sink, pauses.pause(request, user, progress, out, asked, startedNanos, sink));
            }
            steps.checkpoint(request, TurnCheckpoint.Step.TOOL_CALLS, progress, out);
            return steps.run(
                    new RunningTurn(request, user, binding, specs, progress, out, turnContext, startedNanos, sink));
        } catch (RuntimeException e) {
            return ending.failed(e, request, user, progress, out, sink);
        }
    }

    /** The paused turn's user message: the stored one while it is among the newest, else one rebuilt from the state. */
    private Message userMessage(TurnRequest request, TurnState state) {
        String userId = request.principal().userId();
        return store.recentMessages(userId, request.session().id(), 1).stream()
                .filter(m -> m.id().equals(state.userMessageId()))
                .findFirst()
                .orElseGet(() -> new Message(
                        state.userMessageId(),
                        request.session().id(),
                        userId,
                        0,
                        MessageRole.USER,
                        request.userContent(),
                        MessageStatus.COMPLETE,
                        null,
                        clock.instant()));
    }

    /** The calls the user is asked about, held with what each would do. */
    private List<ToolApprovals.Held> asked(TurnRequest request, TurnResume paused, TurnProgress progress) {
        TurnLimits limits = request.agent().limits();
        List<ToolApprovals.Held> held = new ArrayList<>();
        for (TurnResume.ToolDecision d : paused.decisions()) {
            if (!(d instanceof TurnResume.ToolDecision.Ask ask)) continue;
            Duration timeLeft = limits.requestTimeout() == null
                    ? null
                    : TurnSteps.bounded(limits.requestTimeout(), limits, progress);
            held.add(dispatcher.held(
                    ask,
                    request,
                    progress.turnId,
                    TurnSteps.bounded(limits.toolTimeout(), limits, progress),
                    timeLeft));
        }
        return held;
    }

    /** Runs the approved calls and refuses the others, records the calls not recorded yet, and adds their results. */
    private void runDecidedCalls(
            TurnRequest request,
            TurnState state,
            List<TurnResume.ToolDecision> decisions,
            TurnProgress progress,
            AnswerStream out,
            Consumer<TurnEvent> sink) {
        TurnLimits limits = request.agent().limits();
        Duration toolTimeout = TurnSteps.bounded(limits.toolTimeout(), limits, progress);
        Duration timeLeft =
                limits.requestTimeout() == null ? null : TurnSteps.bounded(limits.requestTimeout(), limits, progress);
        List<String> toRun = decisions.stream()
                .filter(d -> d instanceof TurnResume.ToolDecision.Approve)
                .map(TurnResume.ToolDecision::recordId)
                .toList();
        if (!toRun.isEmpty()) approvals.runStarting(state, toRun);
        // a held call's row has the id its approval was known by, committed with its effect or not
        Map<String, String> recordIds = new HashMap<>();
        decisions.forEach(d -> recordIds.put(d.call().id(), d.recordId()));
        TransactionalStep transactional = recorder.transactional(request, progress, out, recordIds);
        List<ToolCallOutcome> outcomes = dispatcher.decide(
                decisions, request, state.turnId(), toolTimeout, timeLeft, progress.cache, transactional.calls(), sink);
        List<TurnState.ToolCall> decided = new ArrayList<>(outcomes.size());
        List<TurnState.ToolCall> unrecorded = new ArrayList<>(outcomes.size());
        for (int i = 0; i < outcomes.size(); i++) {
            TurnResume.ToolDecision decision = decisions.get(i);
            TurnState.ToolCall call = new TurnState.ToolCall(decision.recordId(), outcomes.get(i));
            decided.add(call);
            // a call an earlier attempt at this turn ran has its row already, and a transactional one its own
            boolean written = decision instanceof TurnResume.ToolDecision.Settled settled && settled.recorded();
            if (!written && !transactional.committed(call)) {
                unrecorded.add(call);
            }
        }
        progress.toolCalls.addAll(decided);
        progress.addToolResults(
                outcomes.stream().map(ToolCallOutcome::toMessage).toList());
        // a turn taken over writes them with the state after them, under its new lease
        if (progress.fence != null) recorder.step(request, progress, unrecorded, out);
        else recorder.record(request, unrecorded);
    }
}
