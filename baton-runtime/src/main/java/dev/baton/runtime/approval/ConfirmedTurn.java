package dev.baton.runtime.approval;

import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.turn.TurnOutcome;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a message sent with conversational confirmation came to ({@link ConversationalConfirmation}). Refusals are
 * thrown as a {@code RefusalException}, as for any message.
 */
public sealed interface ConfirmedTurn {

    /** The conversation the message went to (new or continued). */
    String conversationId();

    /** What the user is told, in words. */
    String answer();

    /**
     * A turn ran to its end: the message's own, or the paused turn going on after a yes or a no. It may have failed
     * ({@link TurnOutcome#failure()}).
     */
    record Answered(String conversationId, TurnOutcome outcome) implements ConfirmedTurn {
        public Answered {
            Objects.requireNonNull(conversationId, "conversationId");
            Objects.requireNonNull(outcome, "outcome");
        }

        @Override
        public String answer() {
            return outcome.answer();
        }
    }

    /**
     * The turn paused on calls that need the user's approval, and asks for it in words: the user's next message in
     * the conversation decides.
     *
     * @param turnId the paused turn
     * @param question e.g. "Delete the task 'buy wax'? Reply yes or no."
     * @param toolCalls the calls that ran before the pause
     */
    record Asked(String conversationId, String turnId, String question, List<ToolCallRecord> toolCalls, Instant askedAt)
            implements ConfirmedTurn {
        public Asked {
            Objects.requireNonNull(conversationId, "conversationId");
            Objects.requireNonNull(turnId, "turnId");
            Objects.requireNonNull(question, "question");
            toolCalls = List.copyOf(toolCalls);
            Objects.requireNonNull(askedAt, "askedAt");
        }

        @Override
        public String answer() {
            return question;
        }
    }

    /**
     * A yes or no came after the held calls expired: nothing ran, nothing was decided, and {@code notice} says so.
     */
    record TooLate(String conversationId, String notice, Instant at) implements ConfirmedTurn {
        public TooLate {
            Objects.requireNonNull(conversationId, "conversationId");
            Objects.requireNonNull(notice, "notice");
            Objects.requireNonNull(at, "at");
        }

        @Override
        public String answer() {
            return notice;
        }
    }
}
