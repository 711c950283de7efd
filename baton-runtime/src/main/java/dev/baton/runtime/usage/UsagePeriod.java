package dev.baton.runtime.usage;

import java.time.Instant;
import java.util.Objects;

/** A half-open time range {@code [from, to)} of usage. */
public record UsagePeriod(Instant from, Instant to) {
    public UsagePeriod {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (!from.isBefore(to)) throw new IllegalArgumentException("'from' must be before 'to'");
    }
}
