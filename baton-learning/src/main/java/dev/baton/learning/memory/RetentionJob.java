package dev.baton.learning.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Purges the learning agent's conversations and memory older than the retention age (30 days unless configured).
 * Each run deletes at most {@code batchSize} rows of each kind, oldest first, so a backlog drains over several runs
 * without one long transaction; several instances may run it at once (deleting what is gone already is a no-op).
 */
public final class RetentionJob {
    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    /**
     * @param maxAge conversations inactive and memory unchanged for longer are purged
     * @param every how often the job runs
     * @param batchSize the most rows of each kind one run deletes
     */
    public record Settings(Duration maxAge, Duration every, int batchSize) {
        public static final Settings DEFAULTS = new Settings(Duration.ofDays(30), Duration.ofHours(1), 500);

        public Settings {
            Objects.requireNonNull(maxAge, "maxAge");
            Objects.requireNonNull(every, "every");
            if (maxAge.isNegative() || maxAge.isZero()) throw new IllegalArgumentException("maxAge must be > 0");
            if (every.isNegative() || every.isZero()) throw new IllegalArgumentException("every must be > 0");
            if (batchSize < 1) throw new IllegalArgumentException("batchSize must be >= 1");
        }
    }

    /** What one run deleted. */
    public record Purged(int conversations, int memoryRows) {}

    private final MemoryRepository memory;
    private final ExpiredConversations conversations;
    private final Clock clock;
    private final Settings settings;

    public RetentionJob(MemoryRepository memory, ExpiredConversations conversations, Clock clock, Settings settings) {
        this.memory = Objects.requireNonNull(memory, "memory");
        this.conversations = Objects.requireNonNull(conversations, "conversations");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** One bounded run. */
    public Purged runOnce() {
        Instant cutoff = clock.instant().minus(settings.maxAge());
        Purged purged = new Purged(
                conversations.purge(cutoff, settings.batchSize()), memory.purge(cutoff, settings.batchSize()));
        if (purged.conversations() + purged.memoryRows() > 0) {
            log.info(
                    "learning retention: purged {} conversations and {} memory rows older than {}",
                    purged.conversations(),
                    purged.memoryRows(),
                    cutoff);
        }
        return purged;
    }

    /** Runs every {@code settings.every()} on a background thread until the returned handle is closed. */
    public AutoCloseable start() {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("learning-retention").factory());
        long every = settings.every().toMillis();
        timer.scheduleWithFixedDelay(this::runSafely, every, every, TimeUnit.MILLISECONDS);
        return timer::shutdownNow;
    }

    private void runSafely() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            // the next run tries again; a failing purge must not stop the schedule
            log.warn("learning retention run failed: {}", e.toString());
        }
    }
}
