package dev.baton.providers.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * When a circuit breaker opens and how it recovers.
 *
 * @param failureThreshold this many consecutive counted failures open the breaker
 * @param openDuration how long an open breaker fails calls fast before it lets probes through
 * @param halfOpenProbes how many calls a half-open breaker admits at once to find out whether the other side
 *     recovered; the rest keep failing fast until the probes have answered
 */
public record BreakerSettings(int failureThreshold, Duration openDuration, int halfOpenProbes) {

    /** The model-provider defaults: 3 consecutive failures open the breaker for 60 s. */
    public static final BreakerSettings MODEL_DEFAULTS = new BreakerSettings(3, Duration.ofSeconds(60), 1);

    /** The tool-source defaults: 5 consecutive failures open the breaker for 30 s. */
    public static final BreakerSettings TOOL_DEFAULTS = new BreakerSettings(5, Duration.ofSeconds(30), 1);

    public BreakerSettings {
        if (failureThreshold < 1) {
            throw new IllegalArgumentException("failureThreshold must be >= 1, got " + failureThreshold);
        }
        Objects.requireNonNull(openDuration, "openDuration");
        if (openDuration.isNegative() || openDuration.isZero()) {
            throw new IllegalArgumentException("openDuration must be positive, got " + openDuration);
        }
        if (halfOpenProbes < 1) {
            throw new IllegalArgumentException("halfOpenProbes must be >= 1, got " + halfOpenProbes);
        }
    }
}
