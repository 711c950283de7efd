package dev.baton.runtime.turn;

import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;

/** Hears of every turn the server finishes. Called on the turn's thread: quick, thread-safe, never throwing. */
@FunctionalInterface
public interface TurnObserver {
    /** Hears nothing. */
    TurnObserver NONE = (request, outcome, status, nanos) -> {};

    /**
     * @param status {@code ok}, or the error code the client was sent ({@code request_timeout} for a turn the
     *     server's own deadline cancelled, where the outcome itself says {@code cancelled})
     * @param nanos how long the turn took, from admission to its last event
     */
    void finished(TurnRequest request, TurnOutcome outcome, String status, long nanos);

    /** Tells {@code first}, then {@code second}; one that throws does not keep the other from hearing. */
    static TurnObserver both(TurnObserver first, TurnObserver second) {
        return (request, outcome, status, nanos) -> {
            try {
                first.finished(request, outcome, status, nanos);
            } finally {
                second.finished(request, outcome, status, nanos);
            }
        };
    }
}
