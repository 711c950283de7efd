package dev.baton.app;

import dev.baton.redis.RedisBucketStore;
import dev.baton.redis.RedisReservations;
import dev.baton.redis.SharedRedis;
import dev.baton.runtime.BatonBuilder;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.admission.RateLimitSettings;
import java.time.Clock;

/**
 * Baton's rate limits and budgets from baton.yaml's {@code rateLimits} and {@code budgets}: buckets and budget
 * reservations in the shared Redis when {@code rateLimits.redisUrl} or {@code BATON_REDIS_URL} is set, else in this
 * process.
 */
final class Admission {
    private Admission() {}

    /**
     * Gives the builder the configured limits, and the shared stores when a Redis is configured.
     *
     * @param redis the shared Redis, or null
     * @param opened where what this opens and the runtime does not close is registered, to close with the app
     */
    static void configure(
            BatonBuilder builder, AppSettings settings, Clock clock, SharedRedis redis, OpenedResources opened) {
        RateLimitSettings rates = settings.rateLimits();
        BudgetSettings budgets = settings.budgets();
        builder.limits(rates, budgets);
        if (redis == null) return;
        RedisReservations reservations = null;
        if (budgets.limitsUsers() || budgets.limitsTenants()) {
            reservations = RedisReservations.connect(redis, budgets.redisKeyPrefix(), clock);
            opened.add(reservations);
        }
        builder.sharedLimits(RedisBucketStore.connect(redis, rates.redisKeyPrefix(), clock), reservations);
    }
}
