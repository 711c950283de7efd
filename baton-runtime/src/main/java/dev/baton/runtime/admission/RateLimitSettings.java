package dev.baton.runtime.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code rateLimits} section of baton.yaml: how many messages (POST …/messages and POST /v1/chat) a user and a
 * whole tenant may send per minute and per hour.
 *
 * <pre>{@code
 * rateLimits:
 *   enabled: true
 *   perUser:   { perMinute: 20, perHour: 100 }
 *   perTenant: { perMinute: 0,  perHour: 0 }    # 0 = no limit
 *   redisUrl: redis://127.0.0.1:6379            # or BATON_REDIS_URL; absent = buckets in this process
 *   redisKeyPrefix: "baton:ratelimit:"
 * }</pre>
 *
 * @param redisUrl where shared buckets live; null keeps them in this process (one instance)
 */
public record RateLimitSettings(
        boolean enabled, List<RatePolicy> perUser, List<RatePolicy> perTenant, String redisUrl, String redisKeyPrefix) {

    public static final int DEFAULT_PER_USER_PER_MINUTE = 20;
    public static final int DEFAULT_PER_USER_PER_HOUR = 100;
    /** No rate limits. */
    public static final RateLimitSettings OFF = new RateLimitSettings(false, List.of(), List.of(), null, null);

    public RateLimitSettings {
        perUser = List.copyOf(perUser);
        perTenant = List.copyOf(perTenant);
        redisUrl = redisUrl == null || redisUrl.isBlank() ? null : redisUrl.trim();
        redisKeyPrefix = redisKeyPrefix == null ? "baton:ratelimit:" : redisKeyPrefix;
    }

    /** Reads the section; {@code BATON_REDIS_URL} in the environment overrides {@code redisUrl}. */
    public static RateLimitSettings parse(JsonNode section, Map<String, String> env) {
        String redis = env.get("BATON_REDIS_URL");
        if (redis == null || redis.isBlank()) redis = text(section.path("redisUrl"));
        return new RateLimitSettings(
                section.path("enabled").asBoolean(true),
                policies(section.path("perUser"), "", DEFAULT_PER_USER_PER_MINUTE, DEFAULT_PER_USER_PER_HOUR),
                policies(section.path("perTenant"), "tenant-", 0, 0),
                redis,
                text(section.path("redisKeyPrefix")));
    }

    private static List<RatePolicy> policies(JsonNode node, String prefix, int perMinute, int perHour) {
        List<RatePolicy> policies = new ArrayList<>();
        int minute = count(node, "perMinute", perMinute);
        int hour = count(node, "perHour", perHour);
        if (minute > 0) policies.add(new RatePolicy(prefix + "per-minute", minute, Duration.ofMinutes(1)));
        if (hour > 0) policies.add(new RatePolicy(prefix + "per-hour", hour, Duration.ofHours(1)));
        return policies;
    }

    private static int count(JsonNode node, String field, int fallback) {
        JsonNode n = node.path(field);
        if (n.isMissingNode() || n.isNull()) return fallback;
        if (!n.canConvertToInt() || n.asInt() < 0)
            throw new IllegalArgumentException("rateLimits." + field + " must be a whole number >= 0");
        return n.asInt();
    }

    private static String text(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? null : n.asText();
    }
}
