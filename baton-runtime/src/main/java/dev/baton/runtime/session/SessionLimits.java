package dev.baton.runtime.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import dev.baton.runtime.config.ConfigException;
import java.time.Duration;
import java.util.Objects;

/**
 * The limits of a session as a whole (DESIGN §8), besides the per-turn {@link dev.baton.core.agent.TurnLimits}.
 *
 * @param maxMessages how many messages the user may send in the session; the turn that sends the last one completes
 *     the session after its answer. Null: no limit
 * @param maxSessionDuration how long after its start the session is completed, whatever happens; null: no limit
 * @param inactivityTimeout how long the session may sit idle before the background sweep completes it
 */
public record SessionLimits(Integer maxMessages, Duration maxSessionDuration, Duration inactivityTimeout) {
    /** DESIGN §8's default inactivity timeout. */
    public static final Duration DEFAULT_INACTIVITY_TIMEOUT = Duration.ofHours(24);

    public static final SessionLimits DEFAULTS = new SessionLimits(null, null, DEFAULT_INACTIVITY_TIMEOUT);

    public SessionLimits {
        if (maxMessages != null && maxMessages < 1) throw new IllegalArgumentException("maxMessages must be >= 1");
        if (maxSessionDuration != null && !positive(maxSessionDuration))
            throw new IllegalArgumentException("maxSessionDuration must be positive");
        Objects.requireNonNull(inactivityTimeout, "inactivityTimeout");
        if (!positive(inactivityTimeout)) throw new IllegalArgumentException("inactivityTimeout must be positive");
    }

    /**
     * Overlays the session limits set in a {@code limits:} block on {@code base}: the cascade's "most specific wins".
     * Keys the block does not set keep the base's value.
     */
    public static SessionLimits overlay(JsonNode limits, SessionLimits base) {
        if (limits == null || !limits.isObject()) return base;
        try {
            Integer maxMessages = limits.hasNonNull("maxMessages")
                    ? Integer.valueOf(limits.get("maxMessages").asInt())
                    : base.maxMessages();
            return new SessionLimits(
                    maxMessages,
                    ConfigNodes.duration(limits.path("maxSessionDuration"), base.maxSessionDuration()),
                    ConfigNodes.duration(limits.path("inactivityTimeout"), base.inactivityTimeout()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("bad session limit: " + e.getMessage());
        }
    }

    private static boolean positive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }
}
