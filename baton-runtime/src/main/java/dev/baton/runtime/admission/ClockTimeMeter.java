package dev.baton.runtime.admission;

import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.Instant;

/**
 * Bucket4j's time from a {@link Clock}: wall-clock time, so buckets shared in Redis agree across instances, and a
 * test can move time forward instead of sleeping.
 */
public record ClockTimeMeter(Clock clock) implements TimeMeter {
    @Override
    public long currentTimeNanos() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    public boolean isWallClockBased() {
        return true;
    }
}
