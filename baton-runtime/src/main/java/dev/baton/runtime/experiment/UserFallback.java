package dev.baton.runtime.experiment;

import java.util.Objects;

/**
 * The design's "fall back after 3 failures": a user whose last {@code afterFailures} turns in the experiment (within
 * its rollback window) all failed starts new sessions with {@code agentId} instead of their arm, until the window
 * has moved past those failures.
 */
public record UserFallback(String agentId, int afterFailures) {
    public static final int DEFAULT_AFTER_FAILURES = 3;

    public UserFallback {
        Objects.requireNonNull(agentId, "agentId");
        if (agentId.isBlank()) throw new IllegalArgumentException("fallback agent is required");
        if (afterFailures < 1) throw new IllegalArgumentException("fallback afterFailures must be >= 1");
    }
}
