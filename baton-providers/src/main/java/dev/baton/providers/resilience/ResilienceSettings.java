package dev.baton.providers.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * How model calls are retried and when a provider is given up on for a while.
 *
 * @param timeToFirstToken how long a call may stay silent before its first streamed delta (or its complete
 *     answer); a silent call is aborted and counts as a timeout. The call's overall limit is the request's own
 *     timeout ({@code llmTimeout}).
 * @param timeoutRetryFactor a timed-out call is retried once with its time-to-first-token limit multiplied by this
 * @param retryDelay how long to wait before retrying a provider that answered 502/503/504 or dropped the connection
 * @param retryJitter the delay varies by up to this fraction either way (0.2: 80%–120%), so that many clients
 *     failing together do not come back together
 * @param breaker the per-provider circuit breaker
 */
public record ResilienceSettings(
        Duration timeToFirstToken,
        double timeoutRetryFactor,
        Duration retryDelay,
        double retryJitter,
        BreakerSettings breaker) {

    /**
     * Defaults that fit the default 30 s llmTimeout: a 10 s first-token limit and a 15 s one on the retry leave
     * room for both attempts within the call's own limit.
     */
    public static final ResilienceSettings DEFAULTS = new ResilienceSettings(
            Duration.ofSeconds(10), 1.5, Duration.ofSeconds(2), 0.2, BreakerSettings.MODEL_DEFAULTS);

    public ResilienceSettings {
        positive(timeToFirstToken, "timeToFirstToken");
        if (!(timeoutRetryFactor >= 1.0) || Double.isInfinite(timeoutRetryFactor)) {
            throw new IllegalArgumentException("timeoutRetryFactor must be >= 1, got " + timeoutRetryFactor);
        }
        Objects.requireNonNull(retryDelay, "retryDelay");
        if (retryDelay.isNegative()) {
            throw new IllegalArgumentException("retryDelay must not be negative, got " + retryDelay);
        }
        if (!(retryJitter >= 0.0 && retryJitter < 1.0)) {
            throw new IllegalArgumentException("retryJitter must be in [0, 1), got " + retryJitter);
        }
        Objects.requireNonNull(breaker, "breaker");
    }

    private static void positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }
}
