package dev.baton.server.limits;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.DateTimeException;
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
 * }</pre>
 *
 * @param maxCostPerTurnUsd what a turn reserves before it runs; null to compute it per agent
 */
public record BudgetSettings(
        BigDecimal userDailyUsd,
        BigDecimal userMonthlyUsd,
        BigDecimal tenantDailyUsd,
        BigDecimal tenantMonthlyUsd,
        BigDecimal maxCostPerTurnUsd,
        int maxOutputTokensPerCall,
        ZoneId timeZone) {

    public static final int DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL = 4096;
    public static final BudgetSettings NONE =
            new BudgetSettings(null, null, null, null, null, DEFAULT_MAX_OUTPUT_TOKENS_PER_CALL, ZoneOffset.UTC);

    public BudgetSettings {
        for (BigDecimal v :
                new BigDecimal[] {userDailyUsd, userMonthlyUsd, tenantDailyUsd, tenantMonthlyUsd, maxCostPerTurnUsd}) {
            if (v != null && v.signum() < 0) throw new IllegalArgumentException("budgets must not be negative");
        }
        if (maxOutputTokensPerCall < 1) throw new IllegalArgumentException("maxOutputTokensPerCall must be >= 1");
        timeZone = timeZone == null ? ZoneOffset.UTC : timeZone;
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
                timeZone);
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
