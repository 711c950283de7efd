package dev.baton.core.turn;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.tool.ToolJson;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the tool calls of one model reply inside the turn's limits and reports them as events: every
 * {@link TurnEvent.ToolCallStarted} in the model's order, then (the calls having run concurrently) every
 * {@link TurnEvent.ToolCallFinished} in the same order.
 */
final class ToolDispatcher {
    static final String LIMIT_REACHED = "tool_call_limit_reached";

    private final ToolExecutor executor;
    private final Clock clock;

    ToolDispatcher(ToolExecutor executor, Clock clock) {
        this.executor = executor;
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

        for (ToolCallRequest call : calls) {
            sink.accept(new TurnEvent.ToolCallStarted(
                    call.id(), call.name(), ToolJson.argumentsForDisplay(call.argumentsJson())));
        }
        ToolCallScope scope = new ToolCallScope(
                request.agent(),
                request.principal(),
                request.session().id(),
                toolTimeout,
                request.cancellation(),
                timeLeft);
        List<ToolCallOutcome> outcomes = new ArrayList<>(executor.execute(calls.subList(0, allowed), scope, cache));
        for (ToolCallRequest call : calls.subList(allowed, calls.size())) {
            outcomes.add(ToolCallOutcome.rejected(call, ToolCallState.DENIED, overLimit, clock.instant()));
        }
        for (ToolCallOutcome o : outcomes) {
            sink.accept(finishedEvent(o));
        }
        return List.copyOf(outcomes);
    }

    static TurnEvent.ToolCallFinished finishedEvent(ToolCallOutcome o) {
        String error = o.ok() ? null : o.error().code() + ": " + o.error().message();
        return new TurnEvent.ToolCallFinished(
                o.request().id(), o.request().name(), o.ok(), o.result(), error, o.durationMs());
    }
}
