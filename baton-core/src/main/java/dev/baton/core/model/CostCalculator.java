package dev.baton.core.model;

import java.math.BigDecimal;

/** Prices a model call from its token usage. */
public interface CostCalculator {

    CostCalculator FREE = (provider, model, usage) -> BigDecimal.ZERO;

    BigDecimal cost(String provider, String model, TokenUsage usage);
}
