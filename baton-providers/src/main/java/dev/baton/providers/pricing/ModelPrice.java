package dev.baton.providers.pricing;

import dev.baton.core.model.TokenUsage;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * What one model charges, in USD per million tokens.
 *
 * @param inputPerMillion uncached prompt tokens
 * @param outputPerMillion completion tokens (reasoning tokens included, as providers bill them)
 * @param cachedInputPerMillion prompt tokens served from the provider's prompt cache
 */
public record ModelPrice(BigDecimal inputPerMillion, BigDecimal outputPerMillion, BigDecimal cachedInputPerMillion) {
    /** A model that costs nothing (local models, the simulator). */
    public static final ModelPrice FREE = new ModelPrice(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);

    public ModelPrice {
        Objects.requireNonNull(inputPerMillion, "inputPerMillion");
        Objects.requireNonNull(outputPerMillion, "outputPerMillion");
        cachedInputPerMillion = cachedInputPerMillion == null ? inputPerMillion : cachedInputPerMillion;
        requireNotNegative(inputPerMillion, "inputPerMillion");
        requireNotNegative(outputPerMillion, "outputPerMillion");
        requireNotNegative(cachedInputPerMillion, "cachedInputPerMillion");
    }

    /** A price from plain numbers; cached input is billed at {@code cachedInput}. */
    public static ModelPrice of(String input, String output, String cachedInput) {
        return new ModelPrice(
                new BigDecimal(input),
                new BigDecimal(output),
                cachedInput == null ? null : new BigDecimal(cachedInput));
    }

    /**
     * The exact cost of a call. Cached tokens are taken to be part of {@code inputTokens} (OpenAI reports them that
     * way), so they are billed at the cached price and the rest at the input price.
     */
    public BigDecimal cost(TokenUsage usage) {
        long cached = Math.max(0, Math.min(usage.cachedInputTokens(), usage.inputTokens()));
        long uncached = Math.max(0, usage.inputTokens() - cached);
        BigDecimal microUsd = inputPerMillion
                .multiply(BigDecimal.valueOf(uncached))
                .add(cachedInputPerMillion.multiply(BigDecimal.valueOf(cached)))
                .add(outputPerMillion.multiply(BigDecimal.valueOf(Math.max(0, usage.outputTokens()))));
        // dividing by 10^6 is exact: no rounding anywhere, so sums over many calls stay exact too
        return microUsd.movePointLeft(6);
    }

    /** The most a call can cost that sends {@code inputTokens} and gets {@code outputTokens} back, none cached. */
    public BigDecimal worstCase(long inputTokens, long outputTokens) {
        return cost(new TokenUsage(inputTokens, outputTokens, 0));
    }

    private static void requireNotNegative(BigDecimal value, String name) {
        if (value.signum() < 0) throw new IllegalArgumentException(name + " must not be negative");
    }
}
