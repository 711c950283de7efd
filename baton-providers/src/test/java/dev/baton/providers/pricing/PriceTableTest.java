package dev.baton.providers.pricing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.model.TokenUsage;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriceTableTest {

    @Test
    void cost_is_tokens_times_price_per_million_exactly() {
        PriceTable table = PriceTable.of(Map.of("openai:gpt-4o-mini", ModelPrice.of("0.15", "0.60", "0.075")));

        BigDecimal cost = table.cost("openai", "gpt-4o-mini", new TokenUsage(1_000, 500, 0));

        // 1000 * 0.15 / 1e6 + 500 * 0.60 / 1e6 = 0.00015 + 0.0003
        assertThat(cost).isEqualByComparingTo("0.00045");
    }

    @Test
    void cached_input_tokens_are_billed_at_the_cached_price() {
        PriceTable table = PriceTable.of(Map.of("openai:gpt-4o", ModelPrice.of("2.50", "10", "1.25")));

        BigDecimal cost = table.cost("openai", "gpt-4o", new TokenUsage(1_000_000, 0, 400_000));

        // 600k uncached at 2.50 + 400k cached at 1.25
        assertThat(cost).isEqualByComparingTo("2.00");
    }

    @Test
    void the_longest_matching_prefix_wins_and_an_exact_key_beats_any_prefix() {
        PriceTable table = PriceTable.of(Map.of(
                "openai:gpt-4o*", ModelPrice.of("2.50", "10", null),
                "openai:gpt-4o-mini*", ModelPrice.of("0.15", "0.60", null),
                "openai:gpt-4o-mini-special", ModelPrice.of("9", "9", null),
                "*", ModelPrice.of("1", "1", null)));

        assertThat(table.priceOf("openai", "gpt-4o-2024-08-06").orElseThrow().inputPerMillion())
                .isEqualByComparingTo("2.50");
        assertThat(table.priceOf("openai", "gpt-4o-mini-2024-07-18")
                        .orElseThrow()
                        .inputPerMillion())
                .isEqualByComparingTo("0.15");
        assertThat(table.priceOf("openai", "gpt-4o-mini-special").orElseThrow().inputPerMillion())
                .isEqualByComparingTo("9");
        assertThat(table.priceOf("anthropic", "claude-x").orElseThrow().inputPerMillion())
                .isEqualByComparingTo("1");
    }

    @Test
    void an_unknown_model_costs_nothing() {
        PriceTable table = PriceTable.of(Map.of("openai:gpt-4o", ModelPrice.of("2.50", "10", null)));

        assertThat(table.priceOf("acme", "mystery")).isEmpty();
        assertThat(table.cost("acme", "mystery", new TokenUsage(1_000, 1_000, 0)))
                .isZero();
        // asking twice is fine (the warning is logged once)
        assertThat(table.cost("acme", "mystery", new TokenUsage(1_000, 1_000, 0)))
                .isZero();
    }

    @Test
    void built_in_defaults_price_dated_openai_snapshots_and_keep_the_simulator_free() {
        PriceTable table = PriceTable.defaultsWith(Map.of());

        assertThat(table.cost("openai", "gpt-4o-mini-2024-07-18", new TokenUsage(1_000_000, 1_000_000, 0)))
                .isEqualByComparingTo("0.75");
        assertThat(table.priceOf("anthropic", "claude-sonnet-4-20250514")).isPresent();
        assertThat(table.cost("simulator", "default", new TokenUsage(5_000, 5_000, 0)))
                .isZero();
    }

    @Test
    void gemini_on_an_endpoint_named_gemini_is_priced_per_model_the_longest_prefix_winning() {
        PriceTable table = PriceTable.defaultsWith(Map.of());
        TokenUsage million = new TokenUsage(1_000_000, 1_000_000, 0);

        assertThat(table.cost("gemini", "gemini-2.5-flash", million)).isEqualByComparingTo("2.80");
        assertThat(table.cost("gemini", "gemini-2.5-flash-lite", million)).isEqualByComparingTo("0.50");
        assertThat(table.cost("gemini", "gemini-2.5-pro", million)).isEqualByComparingTo("11.25");
        // cached input at Gemini's cache price
        assertThat(table.cost("gemini", "gemini-2.5-flash", new TokenUsage(1_000_000, 0, 1_000_000)))
                .isEqualByComparingTo("0.03");
    }

    @Test
    void configured_prices_replace_built_in_entries_and_can_drop_the_defaults() throws Exception {
        var json = new ObjectMapper();
        var section = json.readTree("""
                {"models": {
                  "openai:gpt-4o-mini*": {"input": 1, "output": 2},
                  "simulator:*": {"input": 0.5, "output": 1.5, "cachedInput": 0.25}}}
                """);

        PriceTable withDefaults = PriceSettings.parse(section);
        assertThat(withDefaults.cost("openai", "gpt-4o-mini", new TokenUsage(1_000_000, 0, 0)))
                .isEqualByComparingTo("1");
        assertThat(withDefaults.priceOf("openai", "gpt-4.1")).isPresent();
        assertThat(withDefaults.priceOf("simulator", "default").orElseThrow().cachedInputPerMillion())
                .isEqualByComparingTo("0.25");

        var only = json.readTree(
                "{\"builtInDefaults\": false, \"models\": {\"simulator:*\": {\"input\": 1, \"output\": 1}}}");
        assertThat(PriceSettings.parse(only).priceOf("openai", "gpt-4.1")).isEmpty();
    }

    @Test
    void malformed_prices_are_rejected() {
        assertThatThrownBy(() -> PriceTable.of(Map.of("gpt-4o", ModelPrice.FREE)))
                .hasMessageContaining("provider:model");
        assertThatThrownBy(() -> PriceTable.of(Map.of("openai:*-mini", ModelPrice.FREE)))
                .hasMessageContaining("'*' may only end a key");
        assertThatThrownBy(() -> ModelPrice.of("-1", "0", null)).hasMessageContaining("must not be negative");
    }
}
