package dev.baton.runtime.conversation;

import dev.baton.core.turn.TurnEvent;

/**
 * Hears one turn as it runs: once when it is admitted and about to run, then every {@link TurnEvent} in order, the
 * last being {@code Done} or {@code Failed}. Called on the thread that sends the message; a front door that streams
 * writes from here.
 */
@FunctionalInterface
public interface TurnListener {
    /** Hears nothing: for callers that only want the outcome. */
    TurnListener NONE = event -> {};

    /** The turn passed admission and holds the session; nothing ran yet. Refusals come before this, never after. */
    default void admitted(AdmittedTurn turn) {}

    void onEvent(TurnEvent event);
}
