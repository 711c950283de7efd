package dev.baton.providers.pricing;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the {@code prices} section of baton.yaml into a {@link PriceTable}:
 *
 * <pre>{@code
 * prices:
 *   builtInDefaults: true          # start from the built-in table (default true)
 *   models:
 *     "openai:gpt-4o-mini*": { input: 0.15, output: 0.60, cachedInput: 0.075 }
 *     "vllm:*":              { input: 0, output: 0 }   # the compatible endpoint named vllm
 * }</pre>
 *
 * Prices are USD per million tokens; {@code cachedInput} defaults to {@code input}.
 */
public final class PriceSettings {
    private PriceSettings() {}

    /** The table the section describes; a missing section gives the built-in defaults. */
    public static PriceTable parse(JsonNode section) {
        Map<String, ModelPrice> models = new LinkedHashMap<>();
        section.path("models").properties().forEach(e -> models.put(e.getKey(), price(e.getKey(), e.getValue())));
        boolean defaults = section.path("builtInDefaults").asBoolean(true);
        return defaults ? PriceTable.defaultsWith(models) : PriceTable.of(models);
    }

    private static ModelPrice price(String key, JsonNode node) {
        if (!node.isObject())
            throw new IllegalArgumentException("prices.models." + key + " must be {input, output, cachedInput?}");
        return new ModelPrice(
                number(node, "input", key), number(node, "output", key), optionalNumber(node, "cachedInput", key));
    }

    private static BigDecimal number(JsonNode node, String field, String key) {
        BigDecimal value = optionalNumber(node, field, key);
        if (value == null) throw new IllegalArgumentException("prices.models." + key + "." + field + " is required");
        return value;
    }

    private static BigDecimal optionalNumber(JsonNode node, String field, String key) {
        JsonNode n = node.path(field);
        if (n.isMissingNode() || n.isNull()) return null;
        try {
            // through the text, so 0.15 stays exactly 0.15 rather than the nearest double
            return new BigDecimal(n.asText().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "prices.models." + key + "." + field + " is not a number: " + n.asText());
        }
    }
}
