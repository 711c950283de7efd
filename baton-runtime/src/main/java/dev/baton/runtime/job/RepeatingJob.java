package dev.baton.runtime.job;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Background work run on a daemon thread of its own, {@code every} after the previous run ended, until closed. A run
 * that throws is logged and the next one runs as planned: the usual cause is the database being away for a moment,
 * and every job here is safe to run again (and on every instance at once). A zero interval runs nothing.
 */
public final class RepeatingJob implements AutoCloseable {
    private final ScheduledExecutorService timer;

    private RepeatingJob(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /**
     * @param thread the thread's name, as thread dumps and logs show it
     * @param failed what a failed run did not do, for the warning it logs
     */
    public static RepeatingJob start(String thread, Duration every, Runnable run, Logger log, String failed) {
        Objects.requireNonNull(run, "run");
        if (every.isZero()) return new RepeatingJob(null);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, thread);
            t.setDaemon(true);
            return t;
        });
        long ms = every.toMillis();
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        run.run();
                    } catch (RuntimeException e) {
                        log.warn("{}: {}", failed, e.toString());
                    }
                },
                ms,
                ms,
                TimeUnit.MILLISECONDS);
        return new RepeatingJob(timer);
    }

    @Override
    public void close() {
        if (timer != null) timer.shutdownNow();
    }
}
