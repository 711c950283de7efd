package dev.baton.providers.pricing;

import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.TokenUsage;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prices model calls from a table of USD per million tokens, keyed {@code provider:model}.
 *
 * <p>A key is either exact ({@code openai:gpt-4o-mini}) or a prefix ending in {@code *} ({@code openai:gpt-4o-mini*}
 * also matches the dated snapshot {@code gpt-4o-mini-2024-07-18} that the provider reports back; {@code simulator:*}
 * matches every simulator model; a lone {@code *} matches everything). An exact key wins; otherwise the longest
 * matching prefix. A model with no matching key costs 0 and is logged at WARN once, so a missing price shows up in
 * the log rather than as silently free usage.
 */
public final class PriceTable implements CostCalculator {
    private static final Logger log = LoggerFactory.getLogger(PriceTable.class);

    private final Map<String, ModelPrice> exact;
    /** Prefix keys without their '*', longest first so the first match is the most specific. */
    private final List<Map.Entry<String, ModelPrice>> prefixes;

    private final Set<String> warnedUnknown = ConcurrentHashMap.newKeySet();

    private PriceTable(Map<String, ModelPrice> prices) {
        Map<String, ModelPrice> exactKeys = new LinkedHashMap<>();
        Map<String, ModelPrice> prefixKeys = new LinkedHashMap<>();
        prices.forEach((key, price) -> {
            if (key.endsWith("*")) prefixKeys.put(key.substring(0, key.length() - 1), price);
            else exactKeys.put(key, price);
        });
        this.exact = Map.copyOf(exactKeys);
        this.prefixes = prefixKeys.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingInt(
                                (Map.Entry<String, ModelPrice> e) -> e.getKey().length())
                        .reversed())
                .toList();
    }

    /** A table with exactly these prices (keys as described on the class). */
    public static PriceTable of(Map<String, ModelPrice> prices) {
        prices.keySet().forEach(PriceTable::checkKey);
        return new PriceTable(prices);
    }

    /** The built-in prices with {@code overrides} on top (an override replaces the built-in entry of the same key). */
    public static PriceTable defaultsWith(Map<String, ModelPrice> overrides) {
        Map<String, ModelPrice> all = new LinkedHashMap<>(DefaultPrices.TABLE);
        all.putAll(overrides);
        return of(all);
    }

    /** The price of a model, if the table has one. */
    public Optional<ModelPrice> priceOf(String provider, String model) {
        String key = provider + ":" + model;
        ModelPrice price = exact.get(key);
        if (price != null) return Optional.of(price);
        for (Map.Entry<String, ModelPrice> prefix : prefixes) {
            if (key.startsWith(prefix.getKey())) return Optional.of(prefix.getValue());
        }
        return Optional.empty();
    }

    @Override
    public Optional<BigDecimal> worstCaseCall(String provider, String model, long inputTokens, long outputTokens) {
        return priceOf(provider, model).map(p -> p.worstCase(inputTokens, outputTokens));
    }

    @Override
    public BigDecimal cost(String provider, String model, TokenUsage usage) {
        Optional<ModelPrice> price = priceOf(provider, model);
        if (price.isEmpty()) {
            if (warnedUnknown.add(provider + ":" + model)) {
                log.warn(
                        "no price for model {}:{}; its calls are recorded at cost 0 (add it under 'prices' in baton.yaml)",
                        provider,
                        model);
            }
            return BigDecimal.ZERO;
        }
        return price.get().cost(usage);
    }

    private static void checkKey(String key) {
        if (key == null || key.isBlank()) throw new IllegalArgumentException("a price key must not be blank");
        boolean wildcardOnly = key.equals("*");
        if (!wildcardOnly && !key.contains(":"))
            throw new IllegalArgumentException(
                    "price key '" + key + "' is not provider:model (or a prefix ending in *)");
        if (key.indexOf('*') >= 0 && key.indexOf('*') != key.length() - 1)
            throw new IllegalArgumentException("price key '" + key + "': '*' may only end a key");
    }
}
