package dev.baton.server.compat;

import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.approval.ConfirmedTurn;
import java.time.Instant;
import java.util.List;

/**
 * What a design's JSON door answers, whatever the turn came to: an answer, a confirmation question, or the notice
 * that a yes or no came too late.
 *
 * @param turnId the stored answer's id, or the paused turn's while a question waits; null for a late reply's notice
 */
record CompatReply(
        String conversationId, String text, String turnId, List<ToolCallRecord> toolCalls, Instant createdAt) {

    /** A turn that ended with its stored answer. */
    static CompatReply of(TurnOutcome done) {
        return new CompatReply(
                done.userMessage().sessionId(),
                done.assistantMessage().content(),
                done.assistantMessage().id(),
                done.toolCalls(),
                done.assistantMessage().createdAt());
    }

    /** A turn with approval in words: {@code turn} is not a failure (those are answered as errors). */
    static CompatReply of(ConfirmedTurn turn) {
        return switch (turn) {
            case ConfirmedTurn.Answered answered -> of(answered.outcome());
            case ConfirmedTurn.Asked asked ->
                new CompatReply(
                        asked.conversationId(), asked.question(), asked.turnId(), asked.toolCalls(), asked.askedAt());
            case ConfirmedTurn.TooLate late ->
                new CompatReply(late.conversationId(), late.notice(), null, List.of(), late.at());
        };
    }
}
