package dev.baton.core.agent;

import java.time.Duration;

/**
 * The session limits one level of the cascade sets (an agent's {@code limits:}), each null where it sets none: the
 * level below's value then stands.
 *
 * @param maxMessages how many messages the user may send in one session
 * @param maxSessionDuration how long after its start a session is completed
 * @param inactivityTimeout how long a session may sit idle before it is completed
 */
public record SessionLimitOverrides(Integer maxMessages, Duration maxSessionDuration, Duration inactivityTimeout) {
    /** Sets nothing. */
    public static final SessionLimitOverrides NONE = new SessionLimitOverrides(null, null, null);

    public SessionLimitOverrides {
        if (maxMessages != null && maxMessages < 1) throw new IllegalArgumentException("maxMessages must be >= 1");
        if (maxSessionDuration != null && !positive(maxSessionDuration))
            throw new IllegalArgumentException("maxSessionDuration must be positive");
        if (inactivityTimeout != null && !positive(inactivityTimeout))
            throw new IllegalArgumentException("inactivityTimeout must be positive");
    }

    public SessionLimitOverrides withMaxMessages(Integer messages) {
        return new SessionLimitOverrides(messages, maxSessionDuration, inactivityTimeout);
    }

    public SessionLimitOverrides withMaxSessionDuration(Duration duration) {
        return new SessionLimitOverrides(maxMessages, duration, inactivityTimeout);
    }

    public SessionLimitOverrides withInactivityTimeout(Duration timeout) {
        return new SessionLimitOverrides(maxMessages, maxSessionDuration, timeout);
    }

    private static boolean positive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }
}
