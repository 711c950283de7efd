package dev.baton.server.app;

import dev.baton.redis.RedisBucketStore;
import dev.baton.redis.RedisReservations;
import dev.baton.redis.SharedRedis;
import dev.baton.runtime.BatonBuilder;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.config.ConfigException;
import dev.baton.server.config.BatonConfig;
import java.time.Clock;
import java.util.Deque;

/**
 * The server's rate limits and budgets from baton.yaml's {@code rateLimits} and {@code budgets}: buckets and budget
 * reservations in the shared Redis when {@code rateLimits.redisUrl} or {@code BATON_REDIS_URL} is set, else in this
 * process.
 */
final class Admission {
    private Admission() {}

    /** The Redis URL instances share, or null. */
    static String redisUrl(BatonConfig config) {
        return rateSettings(config).redisUrl();
    }

    /**
     * Gives the builder the configured limits, and the shared stores when a Redis is configured.
     *
     * @param redis the shared Redis, or null
     * @param opened where what this opens and the runtime does not close is registered, to close with the server
     */
    static void configure(
            BatonBuilder builder, BatonConfig config, Clock clock, SharedRedis redis, Deque<AutoCloseable> opened) {
        RateLimitSettings rates = rateSettings(config);
        BudgetSettings budgets;
        try {
            budgets = BudgetSettings.parse(config.section("budgets"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        builder.limits(rates, budgets);
        if (redis == null) return;
        RedisReservations reservations = null;
        if (budgets.limitsUsers() || budgets.limitsTenants()) {
            reservations = RedisReservations.connect(redis, budgets.redisKeyPrefix(), clock);
            opened.push(reservations);
        }
        builder.sharedLimits(RedisBucketStore.connect(redis, rates.redisKeyPrefix(), clock), reservations);
    }

    private static RateLimitSettings rateSettings(BatonConfig config) {
        try {
            return RateLimitSettings.parse(config.section("rateLimits"), config.env());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
