package dev.baton.runtime.usage;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The usage of one group of model calls.
 *
 * @param group the value of each grouped dimension (a value may be null: e.g. usage from before agents were
 *     recorded)
 * @param calls how many model calls
 * @param inputTokens every input token, cached ones included
 * @param cachedInputTokens how many of {@code inputTokens} were read from the providers' prompt caches
 */
public record UsageTotals(
        Map<UsageDimension, String> group,
        long calls,
        long inputTokens,
        long outputTokens,
        long cachedInputTokens,
        BigDecimal costUsd) {
    public UsageTotals {
        Objects.requireNonNull(group, "group");
        EnumMap<UsageDimension, String> copy = new EnumMap<>(UsageDimension.class);
        copy.putAll(group);
        group = Collections.unmodifiableMap(copy);
        Objects.requireNonNull(costUsd, "costUsd");
    }
}
