package dev.baton.providers.resilience;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one timer thread behind the providers' watches (a model call's first-token limit and its whole limit, a tool
 * call's deadline).
 * A watch is cancelled by nearly every call, long before it would fire, so a cancelled watch leaves the queue at
 * once ({@link ScheduledThreadPoolExecutor#setRemoveOnCancelPolicy}) instead of staying there for its whole delay
 * with everything its task holds: under load the queue would otherwise hold one task per call of the last ten
 * seconds.
 */
public final class Watchdogs {
    private static final ScheduledThreadPoolExecutor TIMER = create();

    private Watchdogs() {}

    /** Runs {@code action} after {@code delay} unless the returned future is cancelled first. */
    public static ScheduledFuture<?> after(Duration delay, Runnable action) {
        return TIMER.schedule(action, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** How many watches wait to fire (tests: a cancelled watch must not be among them). */
    public static int queued() {
        return TIMER.getQueue().size();
    }

    private static ScheduledThreadPoolExecutor create() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "baton-watchdogs");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }
}
