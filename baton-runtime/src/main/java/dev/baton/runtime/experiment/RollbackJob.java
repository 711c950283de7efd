package dev.baton.runtime.experiment;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Experiments#evaluateTriggers} on a timer, one run at a time. Every instance may run one: a rollback is a
 * compare-and-set on the experiment's version, so of two instances judging the same breach one rolls back and the
 * other finds the arm at weight 0 already. Each run reads a fixed number of aggregates per experiment.
 */
public final class RollbackJob implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RollbackJob.class);

    private final ScheduledExecutorService timer;

    private RollbackJob(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Schedules the evaluation; with a zero interval nothing is scheduled. */
    public static RollbackJob start(Experiments experiments, Duration every) {
        if (every.isZero()) return new RollbackJob(null);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "experiment-rollback");
            t.setDaemon(true);
            return t;
        });
        long ms = every.toMillis();
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        experiments.evaluateTriggers();
                    } catch (RuntimeException e) {
                        // the database briefly away: judged again on the next tick
                        log.warn("experiment triggers not evaluated: {}", e.toString());
                    }
                },
                ms,
                ms,
                TimeUnit.MILLISECONDS);
        return new RollbackJob(timer);
    }

    @Override
    public void close() {
        if (timer != null) timer.shutdownNow();
    }
}
