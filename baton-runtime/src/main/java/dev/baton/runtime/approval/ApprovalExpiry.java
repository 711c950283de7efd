package dev.baton.runtime.approval;

import dev.baton.runtime.job.RepeatingJob;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Approvals#expire} on the lifecycle sweep's timer ({@code lifecycle.sweepInterval}). Every instance may
 * run it: closing a paused turn is a conditional update, so two instances never end the same turn twice.
 */
public final class ApprovalExpiry {
    private static final Logger log = LoggerFactory.getLogger(ApprovalExpiry.class);

    private ApprovalExpiry() {}

    /** Schedules the expiry every {@code interval}; a zero interval schedules nothing. */
    public static RepeatingJob start(Approvals approvals, Duration interval) {
        // the database briefly away: the next run catches up
        return RepeatingJob.start("approval-expiry", interval, approvals::expire, log, "approval expiry failed");
    }
}
