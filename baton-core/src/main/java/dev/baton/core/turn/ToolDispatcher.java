package dev.baton.core.turn;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.tool.ToolJson;
import dev.baton.core.tool.TransactionalCalls;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs the tool calls of one model reply inside the turn's limits and reports them as events: every
 * {@link TurnEvent.ToolCallStarted} in the model's order, then (the calls having run concurrently) every
 * {@link TurnEvent.ToolCallFinished} in the same order. A call that needs the user's approval
 * ({@link ToolApprovals}) is held instead: it gets no events here, and the reply's other calls still run.
 */
final class ToolDispatcher {
    static final String LIMIT_REACHED = "tool_call_limit_reached";

    private final ToolExecutor executor;
    /** Null when nothing is ever held. */
    private final ToolCatalog catalog;

    private final ToolApprovals approvals;
    private final HeldCallSummaries summaries;
    private final Clock clock;

    /** What became of one reply's calls: those that ran or were refused (model order), and those held. */
    record Dispatched(List<ToolCallOutcome> outcomes, List<ToolApprovals.Held> held) {
        Dispatched {
            outcomes = List.copyOf(outcomes);
            held = List.copyOf(held);
        }
    }

    ToolDispatcher(ToolExecutor executor, Clock clock) {
        this(executor, null, ToolApprovals.NONE, clock);
    }

    ToolDispatcher(ToolExecutor executor, ToolCatalog catalog, ToolApprovals approvals, Clock clock) {
        this.executor = executor;
        this.catalog = catalog;
        this.approvals = approvals;
        this.summaries = new HeldCallSummaries(clock);
        this.clock = clock;
    }

    List<ToolCallOutcome> dispatch(
            List<ToolCallRequest> calls,
            TurnRequest request,
            int callsThisTurn,
            Duration toolTimeout,
            CallCache cache,
            Consumer<TurnEvent> sink) {
        return dispatch(calls, request, callsThisTurn, toolTimeout, null, cache, sink);
    }

    /**
     * @param callsThisTurn tool calls the turn has already made
     * @param toolTimeout the default timeout for tools that set none
     * @param timeLeft what is left of the request's time, which caps every tool's timeout; null for no limit
     */
    List<ToolCallOutcome> dispatch(
            List<ToolCallRequest> calls,
            TurnRequest request,
            int callsThisTurn,
            Duration toolTimeout,
            Duration timeLeft,
            CallCache cache,
            Consumer<TurnEvent> sink) {
        return dispatchOrHold(
                        calls,
                        request,
                        null,
                        callsThisTurn,
                        toolTimeout,
                        timeLeft,
                        cache,
                        TransactionalCalls.NONE,
                        sink)
                .outcomes();
    }

    /**
     * Like {@link #dispatch}, but a call within the limits that would run and that {@link ToolApprovals} holds is
     * not run: it is returned as held.
     *
     * @param turnId the turn making the calls, for their idempotency keys ({@link dev.baton.core.id.CallKeys#toolCall})
     * @param transactions where the calls of transactional tools commit
     */
    Dispatched dispatchOrHold(
            List<ToolCallRequest> calls,
            TurnRequest request,
            String turnId,
            int callsThisTurn,
            Duration toolTimeout,
            Duration timeLeft,
            CallCache cache,
            TransactionalCalls transactions,
            Consumer<TurnEvent> sink) {
        TurnLimits limits = request.agent().limits();
        int turnRoom = limits.maxToolCallsPerTurn() - callsThisTurn;
        int conversationRoom =
                limits.maxToolCallsPerConversation() - request.session().toolCallCount() - callsThisTurn;
        int allowed = Math.max(0, Math.min(Math.min(turnRoom, conversationRoom), calls.size()));
        ToolError overLimit = turnRoom <= conversationRoom
                ? new ToolError(
                        LIMIT_REACHED,
                        "The limit of " + limits.maxToolCallsPerTurn()
                                + " tool calls per turn was reached; this call was not run. Answer with what you have.")
                : new ToolError(
                        LIMIT_REACHED,
                        "The limit of " + limits.maxToolCallsPerConversation()
                                + " tool calls per conversation was reached; this call was not run. Answer with what you have.");

        ToolCallScope scope = scope(request, turnId, toolTimeout, timeLeft, transactions);
        List<ToolCallRequest> runNow = new ArrayList<>();
        List<ToolApprovals.Held> held = new ArrayList<>();
        for (ToolCallRequest call : calls.subList(0, allowed)) {
            hold(call, scope, cache).ifPresentOrElse(held::add, () -> runNow.add(call));
        }
        for (ToolCallRequest call : runNow) {
            started(call, sink);
        }
        for (ToolCallRequest call : calls.subList(allowed, calls.size())) {
            started(call, sink);
        }
        List<ToolCallOutcome> outcomes = new ArrayList<>(executor.execute(runNow, scope, cache));
        for (ToolCallRequest call : calls.subList(allowed, calls.size())) {
            outcomes.add(ToolCallOutcome.rejected(call, ToolCallState.DENIED, overLimit, clock.instant()));
        }
        for (ToolCallOutcome o : outcomes) {
            finished(o, sink);
        }
        return new Dispatched(outcomes, held);
    }

    /**
     * Carries out the user's decisions on the calls a paused turn held, in their order: the approved ones run (as
     * decided, with the arguments checked again), the denied ones are refused with the decision's error. They were
     * counted against the turn's limits when they were held.
     */
    List<ToolCallOutcome> decide(
            List<TurnResume.ToolDecision> decisions,
            TurnRequest request,
            String turnId,
            Duration toolTimeout,
            Duration timeLeft,
            CallCache cache,
            TransactionalCalls transactions,
            Consumer<TurnEvent> sink) {
        List<ToolCallRequest> approved = new ArrayList<>();
        for (TurnResume.ToolDecision decision : decisions) {
            started(decision.call(), sink);
            if (decision instanceof TurnResume.ToolDecision.Approve) {
                approved.add(decision.call());
            }
        }
        Iterator<ToolCallOutcome> ran = executor.execute(
                        approved, scope(request, turnId, toolTimeout, timeLeft, transactions), cache)
                .iterator();
        List<ToolCallOutcome> outcomes = new ArrayList<>(decisions.size());
        for (TurnResume.ToolDecision decision : decisions) {
            ToolCallOutcome o = switch (decision) {
                case TurnResume.ToolDecision.Approve approve -> ran.next();
                case TurnResume.ToolDecision.Deny deny ->
                    ToolCallOutcome.rejected(deny.call(), ToolCallState.DENIED, deny.error(), clock.instant());
                case TurnResume.ToolDecision.Settled settled -> settled.outcome();
                case TurnResume.ToolDecision.Ask ask ->
                    throw new IllegalArgumentException("a call the user is asked about is held, not decided");
            };
            outcomes.add(o);
            finished(o, sink);
        }
        return List.copyOf(outcomes);
    }

    /** A call the user is asked about ({@link TurnResume.ToolDecision.Ask}) held, with what it would do. */
    ToolApprovals.Held held(
            TurnResume.ToolDecision.Ask ask,
            TurnRequest request,
            String turnId,
            Duration toolTimeout,
            Duration timeLeft) {
        ToolCallScope scope = scope(request, turnId, toolTimeout, timeLeft, TransactionalCalls.NONE);
        String summary = catalog == null
                ? null
                : catalog.find(scope.agent(), ask.call().name())
                        .map(tool -> summaries.summarise(tool, ask.call(), scope))
                        .orElse(null);
        return new ToolApprovals.Held(ask.call(), ask.reason(), summary);
    }

    /** The call held, with why and what it would do, when it must wait for approval; empty when it may run now. */
    private Optional<ToolApprovals.Held> hold(ToolCallRequest call, ToolCallScope scope, CallCache cache) {
        if (catalog == null || approvals == ToolApprovals.NONE) {
            return Optional.empty();
        }
        Optional<Tool> tool = catalog.find(scope.agent(), call.name());
        if (tool.isEmpty() || !executor.wouldRun(call, scope, cache)) {
            return Optional.empty();
        }
        return approvals
                .reasonToHold(scope.agent(), tool.get().definition(), call)
                .map(reason -> new ToolApprovals.Held(call, reason, summaries.summarise(tool.get(), call, scope)));
    }

    private static ToolCallScope scope(
            TurnRequest request,
            String turnId,
            Duration toolTimeout,
            Duration timeLeft,
            TransactionalCalls transactions) {
        return new ToolCallScope(
                request.agent(),
                request.principal(),
                request.session().id(),
                toolTimeout,
                request.cancellation(),
                timeLeft,
                turnId,
                transactions);
    }

    private static void started(ToolCallRequest call, Consumer<TurnEvent> sink) {
        sink.accept(new TurnEvent.ToolCallStarted(
                call.id(), call.name(), ToolJson.argumentsForDisplay(call.argumentsJson())));
    }

    /** The call's finished event, after a {@link TurnEvent.ConnectRequired} when it needs the user's account. */
    private static void finished(ToolCallOutcome o, Consumer<TurnEvent> sink) {
        if (!o.ok() && o.error().connect() != null) {
            ToolError.AccountConnect connect = o.error().connect();
            sink.accept(new TurnEvent.ConnectRequired(o.request().id(), connect.server(), connect.connectUrl()));
        }
        sink.accept(finishedEvent(o));
    }

    static TurnEvent.ToolCallFinished finishedEvent(ToolCallOutcome o) {
        String error = o.ok() ? null : o.error().code() + ": " + o.error().message();
        return new TurnEvent.ToolCallFinished(
                o.request().id(), o.request().name(), o.ok(), o.result(), error, o.durationMs());
    }
}
