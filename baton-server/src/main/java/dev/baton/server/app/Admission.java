package dev.baton.server.app;

import dev.baton.core.model.CostCalculator;
import dev.baton.redis.RedisBucketStore;
import dev.baton.redis.RedisReservations;
import dev.baton.redis.SharedRedis;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.admission.BucketStore;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.admission.ReservationLedger;
import dev.baton.runtime.admission.TurnAdmission;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.usage.UsageStore;
import dev.baton.server.config.BatonConfig;
import java.time.Clock;
import java.util.Deque;
import java.util.function.Consumer;

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
     * @param redis the shared Redis, or null
     * @param opened where what this opens is registered, to be closed with the server
     */
    static TurnAdmission create(
            BatonConfig config,
            CostCalculator prices,
            UsageStore usage,
            Clock clock,
            SharedRedis redis,
            Deque<AutoCloseable> opened,
            Consumer<Refusal> refusals) {
        RateLimitSettings rates = rateSettings(config);
        BudgetSettings budgets;
        try {
            budgets = BudgetSettings.parse(config.section("budgets"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        BucketStore buckets = redis == null
                ? BucketStore.local(clock)
                : RedisBucketStore.connect(redis, rates.redisKeyPrefix(), clock);
        ReservationLedger reservations = null;
        if (redis != null && (budgets.limitsUsers() || budgets.limitsTenants())) {
            reservations = RedisReservations.connect(redis, budgets.redisKeyPrefix(), clock);
            opened.push(reservations);
        }
        return TurnAdmission.create(rates, budgets, buckets, reservations, usage, prices, clock, refusals);
    }

    private static RateLimitSettings rateSettings(BatonConfig config) {
        try {
            return RateLimitSettings.parse(config.section("rateLimits"), config.env());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
