package dev.baton.runtime.admission;

import java.time.Duration;
import java.util.Objects;

/**
 * One quota: at most {@code quota} message sends per {@code window}, restored all at once when the window ends
 * (windows start at a caller's first send).
 *
 * @param name the policy's name in the {@code RateLimit} and {@code RateLimit-Policy} headers, e.g. {@code per-minute}
 */
public record RatePolicy(String name, long quota, Duration window) {
    public RatePolicy {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z0-9-]+")) throw new IllegalArgumentException("policy name must be [a-z0-9-]+: " + name);
        if (quota < 1) throw new IllegalArgumentException("quota must be >= 1");
        Objects.requireNonNull(window, "window");
        if (window.toSeconds() < 1) throw new IllegalArgumentException("window must be at least one second");
    }

    /** This policy as a {@code RateLimit-Policy} list member (draft-ietf-httpapi-ratelimit-headers-10). */
    String header() {
        return "\"" + name + "\";q=" + quota + ";w=" + window.toSeconds();
    }
}
