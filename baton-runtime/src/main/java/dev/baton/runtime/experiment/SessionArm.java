package dev.baton.runtime.experiment;

import java.time.Instant;
import java.util.Objects;

/** The arm a session was routed to when it started ({@link Routing#FALLBACK_ARM} for the user fallback). */
public record SessionArm(
        String sessionId, String experimentId, String arm, String tenantId, String userId, Instant startedAt) {
    public SessionArm {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(experimentId, "experimentId");
        Objects.requireNonNull(arm, "arm");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
