package dev.baton.runtime.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.usage.SpendSlots;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The {@code budgets} section of baton.yaml: how many USD of model calls a user and a whole tenant may spend per day
 * and per month. Unset means unlimited.
 *
 * <pre>{@code
 * budgets:
 *   perUser:   { dailyUsd: 1.00, monthlyUsd: 20 }
 *   perTenant: { dailyUsd: 50,   monthlyUsd: 1000 }
 *   maxCostPerTurnUsd: 0.25        # reserved per turn; default: computed from the agent's limits and prices
 *   maxOutputTokensPerCall: 4096   # for that computation
 *   timeZone: UTC                  # where days and months begin
 *   reservationMargin: 60s         # how long past its request timeout a turn's reservation outlives its instance
 *   redisKeyPrefix: "baton:budget:" # with rateLimits.redisUrl: where the shared reservations live
 * }</pre>
 *
 * @param maxCostPerTurnUsd what a turn reserves before it runs; null to compute it per agent
 * @param reservationMargin added to a turn's request timeout to give its reservation's time to live: a reservation
 *     that its instance never releases (the instance crashed) stops counting after that long
 * @param redisKeyPrefix the start of the Redis keys of shared reservations (several instances)
 */
public record BudgetSettings(
        BigDecimal userDailyUsd,
        BigDecimal userMonthlyUsd,
        BigDecimal tenantDailyUsd,
        BigDecimal tenantMonthlyUsd,
        BigDecimal maxCostPerTurnUsd,
        int maxOutputTokensPerCall,
        ZoneId timeZone,
        Duration reservationMargin,
        String redisKeyPrefix) {

    /** The section of baton.yaml this reads. */
    public static final String SECTION = "budgets";

    public static final int DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL = 4096;
    public static final Duration DEFAULT_RESERVATION_MARGIN = Duration.ofSeconds(60);
    public static final String DEFAULT_REDIS_KEY_PREFIX = "baton:budget:";
    /** Spending is totalled per 15-minute slot of UTC time, so a budget's day must begin at a slot's start. */
    private static final String UNALIGNED_ZONE =
            "must be offset from UTC by a whole number of 15 minutes (e.g. +05:30)";

    public static final BudgetSettings NONE = new BudgetSettings(
            null, null, null, null, null, DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL, ZoneOffset.UTC, null, null);

    public BudgetSettings {
        for (BigDecimal v :
                new BigDecimal[] {userDailyUsd, userMonthlyUsd, tenantDailyUsd, tenantMonthlyUsd, maxCostPerTurnUsd}) {
            if (v != null && v.signum() < 0) throw new IllegalArgumentException("budgets must not be negative");
        }
        if (maxOutputTokensPerCall < 1) throw new IllegalArgumentException("maxOutputTokensPerCall must be >= 1");
        timeZone = timeZone == null ? ZoneOffset.UTC : timeZone;
        if (!SpendSlots.alignsWith(timeZone)) {
            throw new IllegalArgumentException("timeZone " + UNALIGNED_ZONE + ", got " + timeZone);
        }
        reservationMargin = reservationMargin == null ? DEFAULT_RESERVATION_MARGIN : reservationMargin;
        if (reservationMargin.isNegative())
            throw new IllegalArgumentException("reservationMargin must not be negative");
        redisKeyPrefix = redisKeyPrefix == null ? DEFAULT_REDIS_KEY_PREFIX : redisKeyPrefix;
    }

    /** These budgets with each user allowed {@code dailyUsd} a day and {@code monthlyUsd} a month (null: unlimited). */
    public BudgetSettings withPerUser(BigDecimal dailyUsd, BigDecimal monthlyUsd) {
        return new BudgetSettings(
                dailyUsd,
                monthlyUsd,
                tenantDailyUsd,
                tenantMonthlyUsd,
                maxCostPerTurnUsd,
                maxOutputTokensPerCall,
                timeZone,
                reservationMargin,
                redisKeyPrefix);
    }

    /** These budgets with each tenant allowed {@code dailyUsd} a day and {@code monthlyUsd} a month (null: unlimited). */
    public BudgetSettings withPerTenant(BigDecimal dailyUsd, BigDecimal monthlyUsd) {
        return new BudgetSettings(
                userDailyUsd,
                userMonthlyUsd,
                dailyUsd,
                monthlyUsd,
                maxCostPerTurnUsd,
                maxOutputTokensPerCall,
                timeZone,
                reservationMargin,
                redisKeyPrefix);
    }

    /** These budgets with every turn reserving {@code usd} (null: computed from the agent's limits and prices). */
    public BudgetSettings withMaxCostPerTurnUsd(BigDecimal usd) {
        return new BudgetSettings(
                userDailyUsd,
                userMonthlyUsd,
                tenantDailyUsd,
                tenantMonthlyUsd,
                usd,
                maxOutputTokensPerCall,
                timeZone,
                reservationMargin,
                redisKeyPrefix);
    }

    /** These budgets with days and months beginning in {@code zone}. */
    public BudgetSettings withTimeZone(ZoneId zone) {
        return new BudgetSettings(
                userDailyUsd,
                userMonthlyUsd,
                tenantDailyUsd,
                tenantMonthlyUsd,
                maxCostPerTurnUsd,
                maxOutputTokensPerCall,
                zone,
                reservationMargin,
                redisKeyPrefix);
    }

    public boolean limitsUsers() {
        return userDailyUsd != null || userMonthlyUsd != null;
    }

    public boolean limitsTenants() {
        return tenantDailyUsd != null || tenantMonthlyUsd != null;
    }

    public static BudgetSettings parse(JsonNode section) {
        ConfigSection s = ConfigSection.of(
                section,
                SECTION,
                "perUser",
                "perTenant",
                "maxCostPerTurnUsd",
                "maxOutputTokensPerCall",
                "timeZone",
                "reservationMargin",
                "redisKeyPrefix");
        String zone = s.text("timeZone", "UTC");
        ZoneId timeZone;
        try {
            timeZone = ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw s.invalid("timeZone", "is not a time zone: " + zone + " (e.g. UTC or Europe/Paris)");
        }
        if (!SpendSlots.alignsWith(timeZone)) throw s.invalid("timeZone", UNALIGNED_ZONE + ", got " + zone);
        ConfigSection user = s.section("perUser", "dailyUsd", "monthlyUsd");
        ConfigSection tenant = s.section("perTenant", "dailyUsd", "monthlyUsd");
        return new BudgetSettings(
                usd(user, "dailyUsd"),
                usd(user, "monthlyUsd"),
                usd(tenant, "dailyUsd"),
                usd(tenant, "monthlyUsd"),
                usd(s, "maxCostPerTurnUsd"),
                s.integer("maxOutputTokensPerCall", DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL, 1),
                timeZone,
                s.duration("reservationMargin", DEFAULT_RESERVATION_MARGIN),
                s.text("redisKeyPrefix"));
    }

    private static BigDecimal usd(ConfigSection s, String key) {
        BigDecimal v = s.decimal(key);
        if (v != null && v.signum() < 0) throw s.invalid(key, "must not be negative");
        return v;
    }
}
