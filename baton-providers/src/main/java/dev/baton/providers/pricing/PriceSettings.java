package dev.baton.providers.pricing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
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

    /** The section of baton.yaml this reads. */
    public static final String SECTION = "prices";

    /** The table the section describes; a missing section gives the built-in defaults. */
    public static PriceTable parse(JsonNode section) {
        ConfigSection s = ConfigSection.of(section, SECTION, "builtInDefaults", "models");
        JsonNode table = s.get("models");
        if (!table.isMissingNode() && !table.isNull() && !table.isObject())
            throw s.invalid("models", "must map model patterns to {input, output, cachedInput?}");
        Map<String, ModelPrice> models = new LinkedHashMap<>();
        table.properties().forEach(e -> models.put(e.getKey(), price(table, e.getKey(), e.getValue())));
        return s.bool("builtInDefaults", true) ? PriceTable.defaultsWith(models) : PriceTable.of(models);
    }

    private static ModelPrice price(JsonNode table, String key, JsonNode node) {
        String path = SECTION + ".models." + key;
        if (!node.isObject()) throw ConfigProblem.at(table, key, path + " must be {input, output, cachedInput?}");
        ConfigSection s = ConfigSection.of(node, path, "input", "output", "cachedInput");
        return new ModelPrice(required(s, "input"), required(s, "output"), s.decimal("cachedInput"));
    }

    private static BigDecimal required(ConfigSection s, String field) {
        BigDecimal value = s.decimal(field);
        if (value == null) throw ConfigProblem.of(s.node(), s.qualified(field) + " is required");
        return value;
    }
}
