package dev.baton.runtime.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a session was started under, as stored with it: the whole resolved configuration as JSON, and the limits
 * the database itself compares (the sweep and the end-of-turn check run in SQL).
 *
 * @param configJson the effective configuration the cascade resolved, as JSON; null for sessions started before it
 *     was recorded
 * @param maxMessages how many user messages the session takes; null for no limit
 * @param expiresAt when the session ends whatever happens (start + maxSessionDuration); null for never
 * @param inactivityTimeout how long the session may sit idle before the sweep completes it
 */
public record SessionTerms(String configJson, Integer maxMessages, Instant expiresAt, Duration inactivityTimeout) {
    public SessionTerms {
        if (maxMessages != null && maxMessages < 1) throw new IllegalArgumentException("maxMessages must be >= 1");
        Objects.requireNonNull(inactivityTimeout, "inactivityTimeout");
        if (inactivityTimeout.isNegative() || inactivityTimeout.isZero())
            throw new IllegalArgumentException("inactivityTimeout must be positive");
    }
}
