package dev.baton.runtime.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A UTC clock that stands still until the test moves it, so windows, timeouts and periods pass without sleeping.
 * Safe to read from the server's threads while the test moves it. baton-testkit's, which this module's tests cannot
 * use: the testkit depends on this module for the runtime ports' contract suites.
 */
public final class SettableClock extends Clock {
    private final AtomicReference<Instant> now;

    public SettableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** A clock at 2025-01-01T00:00:00Z. */
    public SettableClock() {
        this(Instant.parse("2025-01-01T00:00:00Z"));
    }

    public void set(Instant instant) {
        now.set(instant);
    }

    public void advance(Duration by) {
        now.updateAndGet(t -> t.plus(by));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** The clock stays in UTC: tests reason in instants. */
    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
