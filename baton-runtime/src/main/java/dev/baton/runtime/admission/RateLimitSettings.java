package dev.baton.runtime.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
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

    /** The section of baton.yaml this reads. */
    public static final String SECTION = "rateLimits";

    public static final int DEFAULT_PER_USER_PER_MINUTE = 20;
    public static final int DEFAULT_PER_USER_PER_HOUR = 100;
    /** No rate limits. */
    public static final RateLimitSettings OFF = new RateLimitSettings(false, List.of(), List.of(), null, null);
    /** What baton.yaml gives with no {@code rateLimits} section: 20 a minute and 100 an hour per user. */
    public static final RateLimitSettings DEFAULTS = new RateLimitSettings(
            true, policies("", DEFAULT_PER_USER_PER_MINUTE, DEFAULT_PER_USER_PER_HOUR), List.of(), null, null);

    public RateLimitSettings {
        perUser = List.copyOf(perUser);
        perTenant = List.copyOf(perTenant);
        redisUrl = redisUrl == null || redisUrl.isBlank() ? null : redisUrl.trim();
        redisKeyPrefix = redisKeyPrefix == null ? "baton:ratelimit:" : redisKeyPrefix;
    }

    /** These settings switched on or off. */
    public RateLimitSettings withEnabled(boolean on) {
        return new RateLimitSettings(on, perUser, perTenant, redisUrl, redisKeyPrefix);
    }

    /** These settings with each user allowed {@code perMinute} and {@code perHour} messages (0: no limit). */
    public RateLimitSettings withPerUser(int perMinute, int perHour) {
        return new RateLimitSettings(enabled, policies("", perMinute, perHour), perTenant, redisUrl, redisKeyPrefix);
    }

    /** These settings with each tenant's users together allowed {@code perMinute} and {@code perHour} (0: no limit). */
    public RateLimitSettings withPerTenant(int perMinute, int perHour) {
        return new RateLimitSettings(
                enabled, perUser, policies("tenant-", perMinute, perHour), redisUrl, redisKeyPrefix);
    }

    /** Reads the section; {@code BATON_REDIS_URL} in the environment overrides {@code redisUrl}. */
    public static RateLimitSettings parse(JsonNode section, Map<String, String> env) {
        ConfigSection s =
                ConfigSection.of(section, SECTION, "enabled", "perUser", "perTenant", "redisUrl", "redisKeyPrefix");
        String redis = env.get("BATON_REDIS_URL");
        if (redis == null || redis.isBlank()) redis = s.text("redisUrl");
        return new RateLimitSettings(
                s.bool("enabled", true),
                policies(s, "perUser", "", DEFAULT_PER_USER_PER_MINUTE, DEFAULT_PER_USER_PER_HOUR),
                policies(s, "perTenant", "tenant-", 0, 0),
                redis,
                s.text("redisKeyPrefix"));
    }

    private static List<RatePolicy> policies(
            ConfigSection section, String key, String prefix, int perMinute, int perHour) {
        ConfigSection s = section.section(key, "perMinute", "perHour");
        return policies(prefix, s.integer("perMinute", perMinute, 0), s.integer("perHour", perHour, 0));
    }

    private static List<RatePolicy> policies(String prefix, int minute, int hour) {
        if (minute < 0 || hour < 0) throw new IllegalArgumentException("rate limits must be >= 0");
        List<RatePolicy> policies = new ArrayList<>();
        if (minute > 0) policies.add(new RatePolicy(prefix + "per-minute", minute, Duration.ofMinutes(1)));
        if (hour > 0) policies.add(new RatePolicy(prefix + "per-hour", hour, Duration.ofHours(1)));
        return policies;
    }
}
