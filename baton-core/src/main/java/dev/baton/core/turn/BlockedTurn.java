package dev.baton.core.turn;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.PausedTurnPendingException;
import dev.baton.core.hook.BeforeAiOutcome;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a turn a before_ai module blocked (DESIGN §4): the user message is stored as {@code [blocked]} (its
 * original in the audit trail), the module's direct response as the answer, reported as a {@link TurnEvent.Blocked}
 * — and the model is never called.
 */
final class BlockedTurn {
    private static final Logger log = LoggerFactory.getLogger(BlockedTurn.class);

    private BlockedTurn() {}

    /** Stores the blocked turn and emits {@code blocked}; returns the outcome whose terminal event is still to send. */
    static TurnOutcome record(
            TurnRecorder recorder,
            TurnRequest request,
            String userMessageId,
            BeforeAiOutcome.Blocked blocked,
            long startedNanos,
            Consumer<TurnEvent> sink) {
        log.info("request {}: blocked by module {} before the model", request.requestId(), blocked.module());
        Message user;
        TurnRecorder.Recorded recorded;
        try {
            try {
                user = saveBlocked(recorder, request, userMessageId, blocked);
            } catch (PausedTurnPendingException paused) {
                // a blocked message supersedes the session's turn waiting for approval as any other message does
                user = saveBlocked(recorder, recorder.supersedePaused(request), userMessageId, blocked);
            }
            recorded = recorder.completeWithoutModel(request, blocked.response());
        } catch (RuntimeException e) {
            log.error("request {}: could not save the blocked turn", request.requestId(), e);
            return new TurnOutcome(null, null, List.of(), TurnEnding.zeroUsage(), null, TurnFailures.internal());
        }
        // reported only once committed: a success is never reported for a write that did not commit
        sink.accept(new TurnEvent.Blocked(blocked.response()));
        long latencyMs = (System.nanoTime() - startedNanos) / 1_000_000;
        TurnEvent.Done done = new TurnEvent.Done(
                recorded.message().id(), null, TurnEnding.zeroUsage(), latencyMs, List.of(), TurnEvent.Done.BLOCKED);
        return new TurnOutcome(user, recorded.message(), List.of(), TurnEnding.zeroUsage(), null, done);
    }

    private static Message saveBlocked(
            TurnRecorder recorder, TurnRequest request, String userMessageId, BeforeAiOutcome.Blocked blocked) {
        return recorder.saveUser(
                request,
                userMessageId,
                TurnRecorder.BLOCKED_CONTENT,
                MessageStatus.BLOCKED,
                blocked.audit(),
                blocked.extractions());
    }
}
