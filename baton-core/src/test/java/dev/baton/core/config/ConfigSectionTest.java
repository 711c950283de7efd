package dev.baton.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigSectionTest {

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void a_key_the_reader_did_not_declare_is_an_unknown_key_with_the_known_ones() throws Exception {
        JsonNode node = json("{\"enabled\": true, \"perMinue\": 3}");
        assertThatThrownBy(() -> ConfigSection.of(node, "rateLimits", "enabled", "perMinute"))
                .isInstanceOfSatisfying(ConfigProblem.class, p -> {
                    assertThat(p.isUnknownKey()).isTrue();
                    assertThat(p.key()).isEqualTo("perMinue");
                    assertThat(p.parent()).isSameAs(node);
                    assertThat(p.knownKeys()).containsExactly("enabled", "perMinute");
                })
                .hasMessage("unknown key 'perMinue' in rateLimits");
    }

    @Test
    void reading_a_key_that_was_not_declared_is_a_bug_caught_at_once() throws Exception {
        ConfigSection s = ConfigSection.of(json("{}"), "metrics", "enabled");
        assertThatThrownBy(() -> s.text("token"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'token' is not a declared key of metrics");
    }

    @Test
    void values_of_the_wrong_type_are_errors_never_silent_defaults() throws Exception {
        ConfigSection s = ConfigSection.of(
                json("{\"n\": \"many\", \"b\": \"yes please\", \"d\": 30, \"m\": {}, \"x\": \"1.5e\"}"),
                "s",
                "n",
                "b",
                "d",
                "m",
                "x");
        assertThatThrownBy(() -> s.integer("n", 1, 0)).hasMessage("s.n must be a whole number >= 0, got 'many'");
        assertThatThrownBy(() -> s.bool("b", true)).hasMessage("s.b must be true or false, got 'yes please'");
        assertThatThrownBy(() -> s.duration("d", Duration.ZERO)).hasMessageContaining("needs a unit");
        assertThatThrownBy(() -> s.text("m")).hasMessage("s.m must be a single value, not a mapping");
        assertThatThrownBy(() -> s.decimal("x")).hasMessage("s.x must be a number, got '1.5e'");
    }

    @Test
    void absent_and_null_values_take_the_fallback() throws Exception {
        ConfigSection s = ConfigSection.of(json("{\"n\": null}"), "s", "n", "m");
        assertThat(s.integer("n", 7, 0)).isEqualTo(7);
        assertThat(s.integer("m", 8, 0)).isEqualTo(8);
        assertThat(s.decimal("m")).isNull();
        assertThat(ConfigSection.of(json("{\"p\": 0.15}"), "s", "p").decimal("p"))
                .isEqualTo(new BigDecimal("0.15"));
    }

    @Test
    void a_shared_mapping_is_checked_by_its_owner_against_every_readers_keys() throws Exception {
        JsonNode limits = json("{\"maxIterations\": 3, \"maxMessages\": 5}");
        assertThat(ConfigSection.part(limits, "limits", ConfigNodes.TURN_LIMIT_KEYS)
                        .integer("maxIterations", 1, 1))
                .isEqualTo(3);
        assertThatThrownBy(() -> ConfigSection.checkKeys(limits, "limits", ConfigNodes.TURN_LIMIT_KEYS))
                .hasMessage("unknown key 'maxMessages' in limits");
    }
}
