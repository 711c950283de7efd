package dev.baton.runtime.admission;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The outcome of taking one message from a caller's rate limits, with what the response headers say about it.
 *
 * @param policies every policy that applied, for {@code RateLimit-Policy}
 * @param reported the policy closest to exhaustion (the one that refused, when refused), for {@code RateLimit}
 * @param remaining what is left of {@code reported}'s quota
 * @param reset when {@code reported}'s quota is restored
 */
public record RateDecision(
        boolean allowed, List<RatePolicy> policies, RatePolicy reported, long remaining, Duration reset) {

    /** No limits apply (rate limiting off). */
    public static final RateDecision UNLIMITED = new RateDecision(true, List.of(), null, 0, Duration.ZERO);

    public RateDecision {
        policies = List.copyOf(policies);
    }

    /**
     * The {@code RateLimit-Policy} and {@code RateLimit} fields of draft-ietf-httpapi-ratelimit-headers-10, e.g.
     * {@code RateLimit-Policy: "per-minute";q=20;w=60, "per-hour";q=100;w=3600} and
     * {@code RateLimit: "per-minute";r=0;t=12}; empty when no limits apply.
     */
    public Map<String, String> quotaFields() {
        if (reported == null) return Map.of();
        Map<String, String> h = new LinkedHashMap<>();
        h.put("RateLimit-Policy", policies.stream().map(RatePolicy::header).collect(Collectors.joining(", ")));
        h.put("RateLimit", "\"" + reported.name() + "\";r=" + remaining + ";t=" + seconds(reset));
        return h;
    }

    /** Whole seconds, rounded up so a client waiting that long is never early. */
    static long seconds(Duration d) {
        if (d.isNegative() || d.isZero()) return 0;
        return d.toSeconds() + (d.toNanosPart() == 0 ? 0 : 1);
    }
}
