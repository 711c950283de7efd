package dev.baton.runtime.durable;

import dev.baton.runtime.job.RepeatingJob;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat of durable turns: at start, this instance's previous boot's turns are made takeable at once; then
 * every {@code durableTurns.heartbeat} this instance renews its turns' leases and takes over orphaned turns. Every
 * instance runs it: a takeover is a compare-and-set on the lease's epoch, so one instance wins each turn.
 */
public final class DurableTurnsJob {
    private static final Logger log = LoggerFactory.getLogger(DurableTurnsJob.class);

    private DurableTurnsJob() {}

    public static RepeatingJob start(OrphanedTurns orphans, Duration heartbeat) {
        try {
            orphans.afterRestart();
        } catch (RuntimeException e) {
            // the database briefly away: the previous boot's turns are then taken over when their leases run out
            log.warn("could not take over the previous boot's turns at once: {}", e.toString());
        }
        return RepeatingJob.start("turn-heartbeat", heartbeat, orphans::heartbeat, log, "turn lease heartbeat failed");
    }
}
