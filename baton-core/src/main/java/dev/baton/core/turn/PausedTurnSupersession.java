package dev.baton.core.turn;

/**
 * Ends the session's turn paused for approval when a new message arrives instead of a decision: the calls it waits
 * on are denied as superseded and its answer so far is stored. A {@link TurnRequest} carries it when its user
 * message's append is to refuse while such a turn waits ({@link
 * dev.baton.core.conversation.ConversationStore#appendUserMessageUnlessPaused}), so a turn looks for a paused turn
 * only when there is one; the runtime implements it with its approvals.
 */
@FunctionalInterface
public interface PausedTurnSupersession {

    /** Ends the session's paused turn, if one still waits; returns whether it ended one. */
    boolean supersede();
}
