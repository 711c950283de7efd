package dev.baton.runtime.approval;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Approvals#expire} on the lifecycle sweep's timer ({@code lifecycle.sweepInterval}). Every instance may
 * run it: closing a paused turn is a conditional update, so two instances never end the same turn twice.
 */
public final class ApprovalExpiry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApprovalExpiry.class);

    private final ScheduledExecutorService timer;

    private ApprovalExpiry(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Schedules the expiry every {@code interval}; a zero interval schedules nothing. */
    public static ApprovalExpiry start(Approvals approvals, Duration interval) {
        if (interval.isZero()) return new ApprovalExpiry(null);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "approval-expiry");
            t.setDaemon(true);
            return t;
        });
        long ms = interval.toMillis();
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        approvals.expire();
                    } catch (RuntimeException e) {
                        // the database was briefly away: the next run catches up
                        log.warn("approval expiry failed: {}", e.toString());
                    }
                },
                ms,
                ms,
                TimeUnit.MILLISECONDS);
        return new ApprovalExpiry(timer);
    }

    @Override
    public void close() {
        if (timer != null) timer.shutdownNow();
    }
}
