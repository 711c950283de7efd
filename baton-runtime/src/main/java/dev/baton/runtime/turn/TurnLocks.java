package dev.baton.runtime.turn;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * What instances sharing a deployment know about each other's turns: one lock per session (so a session runs one
 * turn at a time on any instance) and a cancel signal every instance hears. The baton-redis module implements it;
 * without it, {@link RunningTurns} coordinates this process's turns only. Failures reach the caller as runtime
 * exceptions; {@link RunningTurns} then carries on with this instance alone.
 */
public interface TurnLocks extends AutoCloseable {

    /** Takes the session's lock for {@code ttl}; returns its token, or null when another turn holds it. */
    String lock(String sessionId, Duration ttl);

    /** Releases the session's lock if {@code token} still holds it. */
    void unlock(String sessionId, String token);

    /**
     * Removes the session's lock when a turn of {@code holder} holds it, so a turn taken over from an instance known to
     * be dead (its lease ran out) need not wait for the dead instance's lock to expire; false when another holds it or
     * none does. Locks that name no holder are never broken.
     */
    default boolean breakHeldBy(String sessionId, String holder) {
        return false;
    }

    /** Asks every instance to cancel the session's turn; false (and nothing sent) when no instance holds its lock. */
    boolean cancelAnywhere(String sessionId);

    @Override
    void close();

    /** Connects shared turn locks whose cancel signals reach {@code onCancel} (which must not block). */
    @FunctionalInterface
    interface Connector {
        TurnLocks connect(Consumer<String> onCancel);

        /**
         * Connects locks taken in the name of {@code holder} (this boot of this instance), which another instance can
         * {@link #breakHeldBy break} once it knows this boot died; the default ignores the name.
         */
        default TurnLocks connect(String holder, Consumer<String> onCancel) {
            return connect(onCancel);
        }
    }
}
