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

    /** Asks every instance to cancel the session's turn; false (and nothing sent) when no instance holds its lock. */
    boolean cancelAnywhere(String sessionId);

    @Override
    void close();

    /** Connects shared turn locks whose cancel signals reach {@code onCancel} (which must not block). */
    @FunctionalInterface
    interface Connector {
        TurnLocks connect(Consumer<String> onCancel);
    }
}
