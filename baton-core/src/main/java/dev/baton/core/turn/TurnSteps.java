package dev.baton.core.turn;

import dev.baton.core.agent.TurnLimits;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of a turn: asks the model, runs the tools it calls, and asks again, until the model answers without
 * tools, the turn reaches its step limit, or a call waits for the user's approval. After every model call and every
 * step of tool calls the turn's state is reported to the checkpoint listener.
 */
final class TurnSteps {
    private static final Logger log = LoggerFactory.getLogger(TurnSteps.class);
    static final Consumer<TurnCheckpoint> NO_CHECKPOINTS = checkpoint -> {};

    private final ModelStreamer streamer = new ModelStreamer();
    private final CallPricing pricing;
    private final ToolDispatcher dispatcher;
    private final TurnRecorder recorder;
    private final TurnPauses pauses;
    private final TurnEnding ending;
    private final Consumer<TurnCheckpoint> checkpoints;

    TurnSteps(
            CallPricing pricing,
            ToolDispatcher dispatcher,
            TurnRecorder recorder,
            TurnPauses pauses,
            TurnEnding ending,
            Consumer<TurnCheckpoint> checkpoints) {
        this.pricing = pricing;
        this.dispatcher = dispatcher;
        this.recorder = recorder;
        this.pauses = pauses;
        this.ending = ending;
        this.checkpoints = checkpoints;
    }

    /** Runs the steps until the turn ends; what they throw ends the turn through {@link TurnEnding#failed}. */
    TurnOutcome run(RunningTurn turn) {
        TurnRequest request = turn.request();
        TurnProgress progress = turn.progress();
        AnswerStream out = turn.out();
        TurnLimits limits = request.agent().limits();
        while (true) {
            checkCancelled(request);
            progress.iteration++;
            Duration llmTimeout = bounded(limits.llmTimeout(), limits, progress);
            ModelRequest modelRequest = new ModelRequest(
                    turn.binding().model(),
                    progress.messages,
                    turn.specs(),
                    llmTimeout,
                    request.cancellation(),
                    request.agent().temperature());
            ModelStreamer.ModelCall call = streamer.stream(turn.binding(), modelRequest, out);
            ModelReply reply = call.reply();
            progress.model = reply.model() == null || reply.model().isBlank()
                    ? turn.binding().model()
                    : reply.model();
            progress.usage.add(pricing.usageOf(request, turn.binding(), reply, call.latencyMs()));
            progress.messages.add(new ChatMessage.Assistant(reply.text(), reply.toolCalls()));
            if (reply.wantsTools()) {
                // what a takeover goes on from if this instance dies while the tools run: their outcome is unknown
                recorder.step(request, progress, List.of(), out);
            }
            checkpoint(request, TurnCheckpoint.Step.MODEL_CALL, progress, out);

            if (!reply.wantsTools()) {
                return ending.answered(turn, TurnEvent.Done.COMPLETED);
            }
            if (progress.iteration >= limits.maxIterations()) {
                log.info(
                        "request {}: stopped after {} model calls, the model still wanted tools",
                        request.requestId(),
                        progress.iteration);
                out.text(iterationLimitNote(progress, limits.maxIterations()));
                out.endOfCall();
                return ending.answered(turn, TurnEvent.Done.MAX_ITERATIONS);
            }
            Duration toolTimeout = bounded(limits.toolTimeout(), limits, progress);
            // caps tools whose own timeout is longer than the turn's default
            Duration timeLeft =
                    limits.requestTimeout() == null ? null : bounded(limits.requestTimeout(), limits, progress);
            TransactionalStep transactional = recorder.transactional(request, progress, out);
            ToolDispatcher.Dispatched step = dispatcher.dispatchOrHold(
                    reply.toolCalls(),
                    request,
                    progress.turnId,
                    progress.toolCalls.size(),
                    toolTimeout,
                    timeLeft,
                    progress.cache,
                    transactional.calls(),
                    turn.sink());
            List<TurnState.ToolCall> calls = transactional.toolCalls(step.outcomes());
            progress.toolCalls.addAll(calls);
            step.outcomes().forEach(o -> progress.messages.add(o.toMessage()));
            // the calls and the state after them in one write: a takeover never runs a recorded call again (a
            // transactional call was written with its effect already; when every call was, and with the state this
            // write would write, there is nothing left to write)
            recorder.step(request, progress, transactional.unrecorded(calls), out, transactional.lastCheckpoint());
            if (!step.held().isEmpty()) {
                return TurnEnding.end(
                        turn.sink(),
                        pauses.pause(
                                request, turn.user(), progress, out, step.held(), turn.startedNanos(), turn.sink()));
            }
            checkpoint(request, TurnCheckpoint.Step.TOOL_CALLS, progress, out);
        }
    }

    /** Reports the turn's state after a step; a listener that throws is logged and otherwise ignored. */
    void checkpoint(TurnRequest request, TurnCheckpoint.Step step, TurnProgress progress, AnswerStream out) {
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

    /** A per-call timeout that also respects what is left of the whole request's time. */
    static Duration bounded(Duration perCall, TurnLimits limits, TurnProgress progress) {
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

    /** Unwinds the steps when the turn's cancellation fires between model calls. */
    static final class TurnCancelled extends RuntimeException {
        TurnCancelled() {
            super("turn cancelled", null, false, false);
        }
    }
}
