package dev.baton.core.conversation;

/**
 * A user message was not stored because its session has a turn paused for the user's approval of tool calls (see
 * {@link ConversationStore#appendUserMessageUnlessPaused}): nothing was written. The caller ends the paused turn —
 * a new message supersedes the calls it waits on — and appends the message again.
 */
public final class PausedTurnPendingException extends RuntimeException {

    public PausedTurnPendingException(String sessionId) {
        super("session " + sessionId + " has a turn waiting for approval", null, false, false);
    }
}
