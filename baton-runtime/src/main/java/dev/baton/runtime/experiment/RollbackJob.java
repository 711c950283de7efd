package dev.baton.runtime.experiment;

import dev.baton.runtime.job.RepeatingJob;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Experiments#evaluateTriggers} on a timer, one run at a time. Every instance may run one: a rollback is a
 * compare-and-set on the experiment's version, so of two instances judging the same breach one rolls back and the
 * other finds the arm at weight 0 already. Each run reads a fixed number of aggregates per experiment.
 */
public final class RollbackJob {
    private static final Logger log = LoggerFactory.getLogger(RollbackJob.class);

    private RollbackJob() {}

    /** Schedules the evaluation; with a zero interval nothing is scheduled. */
    public static RepeatingJob start(Experiments experiments, Duration every) {
        // the database briefly away: judged again on the next tick
        return RepeatingJob.start(
                "experiment-rollback", every, experiments::evaluateTriggers, log, "experiment triggers not evaluated");
    }
}
