package dev.baton.server.turn;

import dev.baton.core.turn.Cancellation;
import dev.baton.server.http.ApiException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The turns running on this instance, one per session at most: a second message to a busy session is a 409,
 * and {@code POST /cancel} finds the running turn's switch here. (Cross-instance cancel over Redis comes later.)
 */
public final class RunningTurns {

    private final ConcurrentMap<String, Cancellation> bySession = new ConcurrentHashMap<>();

    /** Registers a turn for the session, or fails with 409 when one is already running. */
    public Cancellation begin(String sessionId) {
        Cancellation c = new Cancellation();
        if (bySession.putIfAbsent(sessionId, c) != null) {
            throw ApiException.conflict("turn_in_progress", "a turn is already running in this session");
        }
        return c;
    }

    public void end(String sessionId, Cancellation c) {
        bySession.remove(sessionId, c);
    }

    /** How many turns run on this instance now. */
    public int count() {
        return bySession.size();
    }

    /** Cancels the session's running turn; false when none runs. */
    public boolean cancel(String sessionId) {
        Cancellation c = bySession.get(sessionId);
        if (c == null) return false;
        c.cancel();
        return true;
    }
}
