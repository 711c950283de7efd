package dev.baton.core.model;

import java.math.BigDecimal;
import java.util.Optional;

/** Prices a model call from its token usage. */
public interface CostCalculator {

    CostCalculator FREE = (provider, model, usage) -> BigDecimal.ZERO;

    BigDecimal cost(String provider, String model, TokenUsage usage);

    /**
     * The most one call to the model can cost: {@code inputTokens} in and {@code outputTokens} out at its prices;
     * empty when the model has no known price. Budgets reserve this before a turn runs.
     */
    default Optional<BigDecimal> worstCaseCall(String provider, String model, long inputTokens, long outputTokens) {
        return Optional.empty();
    }
}
