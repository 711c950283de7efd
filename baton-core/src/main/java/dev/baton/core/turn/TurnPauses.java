package dev.baton.core.turn;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolError;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A turn stopping for the user's approval of tool calls, and a paused turn ended without going on (its held calls
 * refused: the user sent a new message instead, or nobody decided in time).
 */
final class TurnPauses {
    private static final Logger log = LoggerFactory.getLogger(TurnPauses.class);
    private static final ToolError NOT_RUN = new ToolError("cancelled", "The turn ended before this call ran.");

    private final ToolApprovals approvals;
    private final TurnRecorder recorder;
    private final ModulePipeline modules;
    private final Clock clock;
    private final TurnJournal journal;

    TurnPauses(
            ToolApprovals approvals, TurnRecorder recorder, ModulePipeline modules, Clock clock, TurnJournal journal) {
        this.approvals = approvals;
        this.journal = journal;
        this.recorder = recorder;
        this.modules = modules;
        this.clock = clock;
    }

    /**
     * Stores the turn's state with its held calls, then announces each held call; returns the outcome whose terminal
     * ({@link TurnEvent.AwaitingApproval}) is still to be sent.
     *
     * @throws RuntimeException when the pause could not be stored (the turn then fails; the held calls never ran)
     */
    TurnOutcome pause(
            TurnRequest request,
            Message user,
            TurnProgress progress,
            AnswerStream out,
            List<ToolApprovals.Held> held,
            long startedNanos,
            Consumer<TurnEvent> sink) {
        TurnState state = progress.snapshot(out.filters().snapshot());
        List<ToolApprovals.Pending> pending = approvals.pause(new ToolApprovals.Pause(request, state, held));
        // the stored pause is what goes on from here, on whichever instance the decision reaches
        journal.close(progress.fence);
        List<TurnEvent.ApprovalRequired> announced = new ArrayList<>(pending.size());
        for (ToolApprovals.Pending p : pending) {
            TurnEvent.ApprovalRequired event = new TurnEvent.ApprovalRequired(
                    p.callId(), p.toolCallId(), p.name(), p.arguments(), p.reason(), p.expiresAt(), p.summary());
            announced.add(event);
            sink.accept(event);
        }
        log.info(
                "request {}: turn {} paused until the user decides on {}",
                request.requestId(),
                progress.turnId,
                held.stream().map(h -> h.call().name()).toList());
        TurnEvent.Usage usage = progress.totalUsage();
        long latencyMs = (System.nanoTime() - startedNanos) / 1_000_000;
        TurnEvent.AwaitingApproval paused = new TurnEvent.AwaitingApproval(
                progress.turnId, announced, progress.model, usage, latencyMs, progress.toolNames());
        return new TurnOutcome(
                user, null, TurnRecorder.unlinked(request, progress.toolCalls), usage, progress.model, paused);
    }

    /**
     * Ends the paused turn of {@code request.resume()} without the model: each held call is stored refused as its
     * decision says (an approval that never ran is stored cancelled), and the answer so far — what the client saw of
     * it — is stored with {@code status}, with the turn's tool calls and usage.
     */
    TurnOutcome close(TurnRequest request, MessageStatus status, TurnEvent.Failed reason) {
        TurnResume paused = request.resume();
        TurnProgress progress = TurnProgress.resume(paused.state(), clock);
        // a turn taken over and closed at once writes its end under its lease, which the end closes
        progress.fence = paused.fence();
        Instant now = clock.instant();
        for (TurnResume.ToolDecision decision : paused.decisions()) {
            ToolCallOutcome refused = switch (decision) {
                case TurnResume.ToolDecision.Deny deny ->
                    ToolCallOutcome.rejected(deny.call(), ToolCallState.DENIED, deny.error(), now);
                case TurnResume.ToolDecision.Approve approve ->
                    ToolCallOutcome.rejected(approve.call(), ToolCallState.CANCELLED, NOT_RUN, now);
                case TurnResume.ToolDecision.Settled settled -> settled.outcome();
                case TurnResume.ToolDecision.Ask ask ->
                    ToolCallOutcome.rejected(ask.call(), ToolCallState.CANCELLED, NOT_RUN, now);
            };
            progress.toolCalls.add(new TurnState.ToolCall(decision.recordId(), refused));
        }
        // text held for after_ai modules was never shown, so it is not kept (as for a cancelled turn)
        String shown = modules.rewritesAnswers(request.agent()) ? "" : progress.answer.toString();
        TurnRecorder.Recorded recorded = recorder.complete(request, progress, shown, status);
        log.info(
                "request {}: paused turn {} closed ({}) without the model",
                request.requestId(),
                progress.turnId,
                reason.code());
        return new TurnOutcome(
                null, recorded.message(), recorded.toolCalls(), progress.totalUsage(), progress.model, reason);
    }
}
