package dev.baton.runtime.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.SessionLimitOverrides;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigSection;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

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

    /** The keys of a {@code limits:} block this reads (the turn limits share the block). */
    public static final Set<String> KEYS = Set.of("maxMessages", "maxSessionDuration", "inactivityTimeout");

    public static final SessionLimits DEFAULTS = new SessionLimits(null, null, DEFAULT_INACTIVITY_TIMEOUT);

    public SessionLimits {
        if (maxMessages != null && maxMessages < 1) throw new IllegalArgumentException("maxMessages must be >= 1");
        if (maxSessionDuration != null && !positive(maxSessionDuration))
            throw new IllegalArgumentException("maxSessionDuration must be positive");
        Objects.requireNonNull(inactivityTimeout, "inactivityTimeout");
        if (!positive(inactivityTimeout)) throw new IllegalArgumentException("inactivityTimeout must be positive");
    }

    /**
     * Reads baton.yaml's {@code limits:} section: the org level of the cascade (its turn limits are the agents' base,
     * see {@link dev.baton.core.config.ConfigNodes#limits}); keys it does not set keep {@link #DEFAULTS}.
     *
     * @throws dev.baton.core.config.ConfigProblem for an unknown key, a value of the wrong type or out of range
     */
    public static SessionLimits from(JsonNode limitsSection) {
        checkLimitKeys(limitsSection, "limits");
        return overlay(limitsSection, DEFAULTS);
    }

    /** These limits with at most {@code messages} user messages per session (null: no limit). */
    public SessionLimits withMaxMessages(Integer messages) {
        return new SessionLimits(messages, maxSessionDuration, inactivityTimeout);
    }

    /** These limits with sessions completed this long after they started (null: no limit). */
    public SessionLimits withMaxSessionDuration(Duration duration) {
        return new SessionLimits(maxMessages, duration, inactivityTimeout);
    }

    /** These limits with idle sessions completed after {@code timeout}. */
    public SessionLimits withInactivityTimeout(Duration timeout) {
        return new SessionLimits(maxMessages, maxSessionDuration, timeout);
    }

    /**
     * Overlays the session limits set in a {@code limits:} block on {@code base}: the cascade's "most specific wins".
     * Keys the block does not set keep the base's value.
     */
    public static SessionLimits overlay(JsonNode limits, SessionLimits base) {
        return overlay(limits, "limits", base);
    }

    /**
     * Like {@link #overlay(JsonNode, SessionLimits)}, naming the block {@code path} in messages.
     *
     * @throws dev.baton.core.config.ConfigProblem for a value of the wrong type or out of range
     */
    public static SessionLimits overlay(JsonNode limits, String path, SessionLimits base) {
        if (limits == null || !limits.isObject()) return base;
        ConfigSection s = ConfigSection.part(limits, path, KEYS);
        Integer maxMessages = s.optionalInteger("maxMessages", 1);
        Duration maxSessionDuration = s.duration("maxSessionDuration", base.maxSessionDuration());
        Duration inactivityTimeout = s.duration("inactivityTimeout", base.inactivityTimeout());
        if (maxSessionDuration != null && !positive(maxSessionDuration))
            throw s.invalid("maxSessionDuration", "must be longer than zero");
        if (!positive(inactivityTimeout)) throw s.invalid("inactivityTimeout", "must be longer than zero");
        return new SessionLimits(
                maxMessages != null ? maxMessages : base.maxMessages(), maxSessionDuration, inactivityTimeout);
    }

    /**
     * Reads the session limits a {@code limits:} block (an agent's) sets, leaving the others null.
     *
     * @param path the block's name in messages
     * @throws dev.baton.core.config.ConfigProblem for a value of the wrong type or out of range
     */
    public static SessionLimitOverrides overrides(JsonNode limits, String path) {
        if (limits == null || !limits.isObject()) return SessionLimitOverrides.NONE;
        ConfigSection s = ConfigSection.part(limits, path, KEYS);
        Integer maxMessages = s.optionalInteger("maxMessages", 1);
        Duration maxSessionDuration = s.duration("maxSessionDuration", null);
        Duration inactivityTimeout = s.duration("inactivityTimeout", null);
        if (maxSessionDuration != null && !positive(maxSessionDuration))
            throw s.invalid("maxSessionDuration", "must be longer than zero");
        if (inactivityTimeout != null && !positive(inactivityTimeout))
            throw s.invalid("inactivityTimeout", "must be longer than zero");
        return new SessionLimitOverrides(maxMessages, maxSessionDuration, inactivityTimeout);
    }

    /** {@code overrides} over {@code base}: the cascade's "most specific wins", key by key. */
    public static SessionLimits overlay(SessionLimitOverrides overrides, SessionLimits base) {
        return new SessionLimits(
                overrides.maxMessages() != null ? overrides.maxMessages() : base.maxMessages(),
                overrides.maxSessionDuration() != null ? overrides.maxSessionDuration() : base.maxSessionDuration(),
                overrides.inactivityTimeout() != null ? overrides.inactivityTimeout() : base.inactivityTimeout());
    }

    /**
     * Checks every key of a {@code limits:} block (org, agent or assignment): it holds these session limits and the
     * turn limits, and nothing else.
     */
    public static void checkLimitKeys(JsonNode limits, String path) {
        ConfigSection.checkKeys(limits, path, ConfigSection.union(KEYS, ConfigNodes.TURN_LIMIT_KEYS));
    }

    private static boolean positive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }
}
