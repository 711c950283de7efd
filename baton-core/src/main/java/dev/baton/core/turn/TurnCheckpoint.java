package dev.baton.core.turn;

import java.util.Objects;

/**
 * A running turn's state after one of its steps, as {@link TurnRunner#withCheckpoints} reports it.
 *
 * @param requestId the request the turn runs for
 * @param after the step just finished
 * @param state the loop state at that point, complete enough to go on from
 */
public record TurnCheckpoint(String requestId, Step after, TurnState state) {

    /** The steps of a turn's loop. */
    public enum Step {
        /**
         * A model call answered: its usage is counted and its reply is the last of {@link TurnState#messages()}; the
         * tool calls it asked for, if any, are {@link TurnState#pendingToolCalls()}.
         */
        MODEL_CALL,
        /** The tool calls of the last model reply have finished and been written; their results end the messages. */
        TOOL_CALLS
    }

    public TurnCheckpoint {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(state, "state");
    }
}
