package dev.baton.runtime.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
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

    public static final int DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL = 4096;
    public static final Duration DEFAULT_RESERVATION_MARGIN = Duration.ofSeconds(60);
    public static final String DEFAULT_REDIS_KEY_PREFIX = "baton:budget:";
    public static final BudgetSettings NONE = new BudgetSettings(
            null, null, null, null, null, DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL, ZoneOffset.UTC, null, null);

    public BudgetSettings {
        for (BigDecimal v :
                new BigDecimal[] {userDailyUsd, userMonthlyUsd, tenantDailyUsd, tenantMonthlyUsd, maxCostPerTurnUsd}) {
            if (v != null && v.signum() < 0) throw new IllegalArgumentException("budgets must not be negative");
        }
        if (maxOutputTokensPerCall < 1) throw new IllegalArgumentException("maxOutputTokensPerCall must be >= 1");
        timeZone = timeZone == null ? ZoneOffset.UTC : timeZone;
        reservationMargin = reservationMargin == null ? DEFAULT_RESERVATION_MARGIN : reservationMargin;
        if (reservationMargin.isNegative())
            throw new IllegalArgumentException("reservationMargin must not be negative");
        redisKeyPrefix = redisKeyPrefix == null ? DEFAULT_REDIS_KEY_PREFIX : redisKeyPrefix;
    }

    public boolean limitsUsers() {
        return userDailyUsd != null || userMonthlyUsd != null;
    }

    public boolean limitsTenants() {
        return tenantDailyUsd != null || tenantMonthlyUsd != null;
    }

    public static BudgetSettings parse(JsonNode section) {
        String zone = section.path("timeZone").asText("UTC");
        ZoneId timeZone;
        try {
            timeZone = ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("budgets.timeZone is not a time zone: " + zone);
        }
        return new BudgetSettings(
                usd(section.path("perUser").path("dailyUsd"), "perUser.dailyUsd"),
                usd(section.path("perUser").path("monthlyUsd"), "perUser.monthlyUsd"),
                usd(section.path("perTenant").path("dailyUsd"), "perTenant.dailyUsd"),
                usd(section.path("perTenant").path("monthlyUsd"), "perTenant.monthlyUsd"),
                usd(section.path("maxCostPerTurnUsd"), "maxCostPerTurnUsd"),
                section.path("maxOutputTokensPerCall").asInt(DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL),
                timeZone,
                ConfigNodes.duration(section.path("reservationMargin"), DEFAULT_RESERVATION_MARGIN),
                section.path("redisKeyPrefix").isTextual()
                        ? section.path("redisKeyPrefix").asText()
                        : null);
    }

    private static BigDecimal usd(JsonNode n, String name) {
        if (n.isMissingNode() || n.isNull()) return null;
        try {
            return new BigDecimal(n.asText().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("budgets." + name + " is not a number: " + n.asText());
        }
    }
}
