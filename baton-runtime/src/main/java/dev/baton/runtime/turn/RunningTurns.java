package dev.baton.runtime.turn;

import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turns running on this instance, one per session at most: a second message to a busy session is a 409,
 * and {@code POST /cancel} finds the running turn's switch here. {@link #shared} makes both hold across instances
 * through Redis (a lock per session, cancels published to every instance); when Redis fails at run time this
 * instance carries on alone rather than refusing turns.
 */
public final class RunningTurns implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RunningTurns.class);
    private static final long LOG_FAILURE_EVERY_NANOS = Duration.ofMinutes(1).toNanos();
    /** The lock's lifetime for callers that name no request timeout. */
    private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    /** How long a shared lock outlives its turn's request timeout, so a crashed instance's lock still expires soon. */
    public static final Duration LOCK_MARGIN = Duration.ofSeconds(30);

    /** A turn on this instance: its switch and, when Redis took it, the token of its session lock. */
    private record Running(Cancellation cancellation, String lockToken) {}

    private final ConcurrentMap<String, Running> bySession = new ConcurrentHashMap<>();
    private final AtomicLong lastFailureLog = new AtomicLong(System.nanoTime() - LOG_FAILURE_EVERY_NANOS);
    /** Null when this instance runs alone. */
    private volatile TurnLocks shared;

    /** Turns of this instance alone. */
    public RunningTurns() {}

    /**
     * Turns locked and cancelled across every instance that shares the locks {@code connector} connects to (closed
     * with this).
     *
     * @throws RuntimeException when the shared locks are not reachable now
     */
    public static RunningTurns shared(TurnLocks.Connector connector) {
        return shared(connector, null);
    }

    /**
     * Like {@link #shared(TurnLocks.Connector)}, with locks taken in the name of {@code holder} (this boot of this
     * instance; null for none), which an instance that takes a turn of this boot over may break.
     */
    public static RunningTurns shared(TurnLocks.Connector connector, String holder) {
        RunningTurns turns = new RunningTurns();
        java.util.function.Consumer<String> onCancel = sessionId ->
                // off Redis' event loop: a cancel closes model connections and wakes tools
                Thread.ofVirtual().name("turn-cancel").start(() -> turns.cancelHere(sessionId));
        turns.shared = holder == null ? connector.connect(onCancel) : connector.connect(holder, onCancel);
        return turns;
    }

    /**
     * Breaks the session's shared lock if a turn of {@code holder}, a boot known to be dead, holds it; false when there
     * are no shared locks, another holds it, or they cannot be reached.
     */
    public boolean breakHeldBy(String sessionId, String holder) {
        TurnLocks s = shared;
        if (s == null) return false;
        try {
            return s.breakHeldBy(sessionId, holder);
        } catch (RuntimeException e) {
            logFailure(e);
            return false;
        }
    }

    /** Registers a turn for the session, or fails with 409 when one is already running. */
    public Cancellation begin(String sessionId) {
        return begin(sessionId, DEFAULT_TIMEOUT);
    }

    /**
     * Registers a turn that ends within {@code timeout}, or fails with 409 when one is already running (on any
     * instance, when shared; a crashed instance's lock expires {@link #LOCK_MARGIN} after that).
     */
    public Cancellation begin(String sessionId, Duration timeout) {
        Cancellation c = new Cancellation();
        if (bySession.putIfAbsent(sessionId, new Running(c, null)) != null) throw busy();
        TurnLocks s = shared;
        if (s == null) return c;
        String token;
        try {
            token = s.lock(sessionId, timeout.plus(LOCK_MARGIN));
        } catch (RuntimeException e) {
            logFailure(e);
            return c;
        }
        if (token == null) {
            bySession.remove(sessionId, new Running(c, null));
            throw busy();
        }
        bySession.replace(sessionId, new Running(c, null), new Running(c, token));
        return c;
    }

    public void end(String sessionId, Cancellation c) {
        Running r = bySession.get(sessionId);
        if (r == null || r.cancellation() != c || !bySession.remove(sessionId, r)) return;
        TurnLocks s = shared;
        if (s == null || r.lockToken() == null) return;
        try {
            s.unlock(sessionId, r.lockToken());
        } catch (RuntimeException e) {
            // the lock expires by itself
            logFailure(e);
        }
    }

    /** How many turns run on this instance now. */
    public int count() {
        return bySession.size();
    }

    /** Cancels the session's running turn, on whichever instance runs it; false when none runs. */
    public boolean cancel(String sessionId) {
        if (cancelHere(sessionId)) return true;
        TurnLocks s = shared;
        if (s == null) return false;
        try {
            return s.cancelAnywhere(sessionId);
        } catch (RuntimeException e) {
            logFailure(e);
            return false;
        }
    }

    private boolean cancelHere(String sessionId) {
        Running r = bySession.get(sessionId);
        if (r == null) return false;
        r.cancellation().cancel();
        return true;
    }

    private static RefusalException busy() {
        return new RefusalException(new Refusal.SessionBusy());
    }

    private void logFailure(RuntimeException e) {
        long now = System.nanoTime();
        long last = lastFailureLog.get();
        if (now - last >= LOG_FAILURE_EVERY_NANOS && lastFailureLog.compareAndSet(last, now)) {
            log.error(
                    "Redis failed for turn locks or cancel; this instance coordinates its own turns only until it "
                            + "recovers: {}",
                    e.toString());
        }
    }

    @Override
    public void close() {
        TurnLocks s = shared;
        shared = null;
        if (s != null) s.close();
    }
}
