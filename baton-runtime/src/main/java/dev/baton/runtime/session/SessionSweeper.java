package dev.baton.runtime.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.job.RepeatingJob;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link SessionLifecycle#sweep} on a timer. Every instance may run one: each run is a single conditional
 * update, so two instances never end the same session twice.
 */
public final class SessionSweeper {
    private static final Logger log = LoggerFactory.getLogger(SessionSweeper.class);

    /**
     * baton.yaml's {@code lifecycle:} section.
     *
     * @param sweepInterval how often to look for idle and expired sessions; zero turns the sweep off
     * @param sweepBatch at most this many sessions are completed per run
     */
    public record Settings(Duration sweepInterval, int sweepBatch) {
        public static final Settings DEFAULTS = new Settings(Duration.ofMinutes(1), 500);

        public Settings {
            if (sweepInterval == null || sweepInterval.isNegative())
                throw new IllegalArgumentException("sweepInterval must be >= 0");
            if (sweepBatch < 1) throw new IllegalArgumentException("sweepBatch must be >= 1");
        }

        /** These settings, looking for idle and expired sessions every {@code interval} (zero: never). */
        public Settings withSweepInterval(Duration interval) {
            return new Settings(interval, sweepBatch);
        }

        /** These settings, completing at most {@code batch} sessions per run. */
        public Settings withSweepBatch(int batch) {
            return new Settings(sweepInterval, batch);
        }

        /** The section of baton.yaml this reads. */
        public static final String SECTION = "lifecycle";

        public static Settings from(JsonNode section) {
            ConfigSection s = ConfigSection.of(section, SECTION, "sweepInterval", "sweepBatch");
            return new Settings(
                    s.duration("sweepInterval", DEFAULTS.sweepInterval()),
                    s.integer("sweepBatch", DEFAULTS.sweepBatch(), 1));
        }
    }

    private SessionSweeper() {}

    /** Schedules the sweep; with a zero interval nothing is scheduled. */
    public static RepeatingJob start(SessionLifecycle lifecycle, Settings settings) {
        // a failed run (database briefly away) is retried on the next tick
        return RepeatingJob.start(
                "session-sweep",
                settings.sweepInterval(),
                () -> lifecycle.sweep(settings.sweepBatch()),
                log,
                "session sweep failed");
    }
}
