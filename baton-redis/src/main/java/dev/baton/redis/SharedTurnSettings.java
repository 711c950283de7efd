package dev.baton.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;

/**
 * The {@code turns} section of baton.yaml: where the cross-instance turn locks and the cancel channel live in the
 * Redis that {@code rateLimits.redisUrl} configures.
 *
 * <pre>
 * turns:
 *   redisKeyPrefix: "baton:"   # locks at &lt;prefix&gt;turn:&lt;sessionId&gt;, cancels published on &lt;prefix&gt;cancel
 * </pre>
 *
 * @param redisKeyPrefix prefixes the lock keys and the cancel channel
 */
public record SharedTurnSettings(String redisKeyPrefix) {
    public SharedTurnSettings {
        redisKeyPrefix = redisKeyPrefix == null || redisKeyPrefix.isBlank() ? "baton:" : redisKeyPrefix;
    }

    /** Reads the section (missing or empty = defaults). */
    public static SharedTurnSettings parse(JsonNode section) {
        ConfigSection s = ConfigSection.of(section, SECTION, "redisKeyPrefix");
        if (s.has("redisKeyPrefix") && !s.get("redisKeyPrefix").isTextual())
            throw s.invalid("redisKeyPrefix", "must be a string");
        return new SharedTurnSettings(s.text("redisKeyPrefix"));
    }

    /** The section of baton.yaml this reads. */
    public static final String SECTION = "turns";

    String lockKey(String sessionId) {
        return redisKeyPrefix + "turn:" + sessionId;
    }

    String cancelChannel() {
        return redisKeyPrefix + "cancel";
    }
}
