package dev.baton.runtime.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import dev.baton.core.conversation.IdempotencyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forgets Idempotency-Key responses once they are older than the retention (24 h by default): a client retries
 * within seconds or minutes, and without this the table would only ever grow. Every instance may run it; the
 * delete is idempotent.
 */
public final class IdempotencyKeyExpiry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IdempotencyKeyExpiry.class);

    /**
     * baton.yaml's {@code idempotency:} section.
     *
     * @param retention how long a response is replayable
     * @param interval how often old keys are deleted; zero turns the expiry off
     * @param claimMargin how long past the longest request timeout of any agent a claim of a request that never ended
     *     (its instance died) still holds its key; then a retry with the key runs
     */
    public record Settings(Duration retention, Duration interval, Duration claimMargin) {
        public static final Duration DEFAULT_CLAIM_MARGIN = Duration.ofSeconds(30);
        public static final Settings DEFAULTS =
                new Settings(Duration.ofHours(24), Duration.ofHours(1), DEFAULT_CLAIM_MARGIN);

        public Settings {
            if (retention == null || retention.isNegative() || retention.isZero())
                throw new IllegalArgumentException("idempotency.retention must be positive");
            if (interval == null || interval.isNegative())
                throw new IllegalArgumentException("idempotency.interval must be >= 0");
            if (claimMargin == null || claimMargin.isNegative())
                throw new IllegalArgumentException("idempotency.claimMargin must be >= 0");
        }

        public Settings(Duration retention, Duration interval) {
            this(retention, interval, DEFAULT_CLAIM_MARGIN);
        }

        /** These settings, a response replayable for {@code retention}. */
        public Settings withRetention(Duration retention) {
            return new Settings(retention, interval, claimMargin);
        }

        /** These settings, old keys deleted every {@code interval} (zero: never). */
        public Settings withInterval(Duration interval) {
            return new Settings(retention, interval, claimMargin);
        }

        /** These settings, an abandoned claim held for the longest request timeout plus {@code margin}. */
        public Settings withClaimMargin(Duration margin) {
            return new Settings(retention, interval, margin);
        }

        /** The section of baton.yaml this reads. */
        public static final String SECTION = "idempotency";

        public static Settings from(JsonNode section) {
            ConfigSection s = ConfigSection.of(section, SECTION, "retention", "interval", "claimMargin");
            Duration retention = s.duration("retention", DEFAULTS.retention());
            if (retention.isZero()) throw s.invalid("retention", "must be longer than zero");
            return new Settings(
                    retention,
                    s.duration("interval", DEFAULTS.interval()),
                    s.duration("claimMargin", DEFAULTS.claimMargin()));
        }
    }

    private final IdempotencyStore store;
    private final Clock clock;
    private final Settings settings;
    private final ScheduledExecutorService timer;

    private IdempotencyKeyExpiry(IdempotencyStore store, Clock clock, Settings settings) {
        this.store = store;
        this.clock = clock;
        this.settings = settings;
        this.timer = settings.interval().isZero()
                ? null
                : Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "idempotency-expiry");
                    t.setDaemon(true);
                    return t;
                });
    }

    public static IdempotencyKeyExpiry start(IdempotencyStore store, Clock clock, Settings settings) {
        IdempotencyKeyExpiry expiry = new IdempotencyKeyExpiry(store, clock, settings);
        if (expiry.timer != null) {
            long ms = settings.interval().toMillis();
            expiry.timer.scheduleWithFixedDelay(expiry::runQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
        return expiry;
    }

    /** Deletes the keys older than the retention now; returns how many. */
    public int runOnce() {
        return store.deleteOlderThan(clock.instant().minus(settings.retention()));
    }

    private void runQuietly() {
        try {
            int deleted = runOnce();
            if (deleted > 0) log.info("forgot {} idempotency keys older than {}", deleted, settings.retention());
        } catch (RuntimeException e) {
            // the database was briefly away: the next run catches up
            log.warn("idempotency key expiry failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        if (timer != null) timer.shutdownNow();
    }
}
