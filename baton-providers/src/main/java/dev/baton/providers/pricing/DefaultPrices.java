package dev.baton.providers.pricing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Built-in list prices (USD per million tokens: input, output, cached input) of common models, as published by the
 * providers in 2025. They are a convenience, not an authority: providers change prices, and contracts differ. Override
 * any entry under {@code prices.models} in baton.yaml.
 */
final class DefaultPrices {
    static final Map<String, ModelPrice> TABLE = table();

    private DefaultPrices() {}

    private static Map<String, ModelPrice> table() {
        Map<String, ModelPrice> t = new LinkedHashMap<>();
        // OpenAI: prefixes so that dated snapshots (gpt-4o-mini-2024-07-18) reported back by the API match too
        t.put("openai:gpt-4o*", ModelPrice.of("2.50", "10.00", "1.25"));
        t.put("openai:gpt-4o-mini*", ModelPrice.of("0.15", "0.60", "0.075"));
        t.put("openai:gpt-4.1*", ModelPrice.of("2.00", "8.00", "0.50"));
        t.put("openai:gpt-4.1-mini*", ModelPrice.of("0.40", "1.60", "0.10"));
        t.put("openai:gpt-4.1-nano*", ModelPrice.of("0.10", "0.40", "0.025"));
        t.put("openai:gpt-5*", ModelPrice.of("1.25", "10.00", "0.125"));
        t.put("openai:gpt-5-mini*", ModelPrice.of("0.25", "2.00", "0.025"));
        t.put("openai:gpt-5-nano*", ModelPrice.of("0.05", "0.40", "0.005"));
        t.put("openai:o3*", ModelPrice.of("2.00", "8.00", "0.50"));
        t.put("openai:o3-mini*", ModelPrice.of("1.10", "4.40", "0.55"));
        t.put("openai:o4-mini*", ModelPrice.of("1.10", "4.40", "0.275"));
        // Anthropic: cached input is the cache-read price
        t.put("anthropic:claude-opus-4*", ModelPrice.of("15.00", "75.00", "1.50"));
        t.put("anthropic:claude-opus-4-5*", ModelPrice.of("5.00", "25.00", "0.50"));
        t.put("anthropic:claude-sonnet-4*", ModelPrice.of("3.00", "15.00", "0.30"));
        t.put("anthropic:claude-3-7-sonnet*", ModelPrice.of("3.00", "15.00", "0.30"));
        t.put("anthropic:claude-3-5-sonnet*", ModelPrice.of("3.00", "15.00", "0.30"));
        t.put("anthropic:claude-haiku-4-5*", ModelPrice.of("1.00", "5.00", "0.10"));
        t.put("anthropic:claude-3-5-haiku*", ModelPrice.of("0.80", "4.00", "0.08"));
        // Gemini through its OpenAI-compatible endpoint, priced under the endpoint's name: name it "gemini"
        // (models.compatible.gemini) for these to apply; paid-tier prices for prompts up to 200k tokens
        t.put("gemini:gemini-2.5-pro*", ModelPrice.of("1.25", "10.00", "0.125"));
        t.put("gemini:gemini-2.5-flash*", ModelPrice.of("0.30", "2.50", "0.03"));
        t.put("gemini:gemini-2.5-flash-lite*", ModelPrice.of("0.10", "0.40", "0.01"));
        t.put("gemini:gemini-2.0-flash*", ModelPrice.of("0.10", "0.40", "0.025"));
        // models that run locally or are simulated cost nothing, and should not warn as unknown
        t.put("ollama:*", ModelPrice.FREE);
        t.put("simulator:*", ModelPrice.FREE);
        return Map.copyOf(t);
    }
}
