package dev.baton.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code models.requestTimeout} and {@code BATON_MODEL_TIMEOUT}, read the way the server reads baton.yaml. */
class ModelSettingsTest {

    private static ModelSettings load(String yaml, Map<String, String> env) {
        return ConfigLoader.from(ConfigFile.parse(yaml, "baton.yaml"), env).models();
    }

    @Test
    void without_a_request_timeout_each_provider_keeps_its_own() {
        assertThat(load("models: {default: simulator:default}\n", Map.of()).requestTimeout())
                .isNull();
        assertThat(load("server: {port: 0}\n", Map.of()).requestTimeout()).isNull();
    }

    @Test
    void a_request_timeout_is_a_duration_in_the_syntax_of_every_other_setting() {
        assertThat(load("models: {requestTimeout: 90s}\n", Map.of()).requestTimeout())
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(load("models: {requestTimeout: PT2M}\n", Map.of()).requestTimeout())
                .isEqualTo(Duration.ofMinutes(2));
        assertThat(load("models: {requestTimeout: 1500ms}\n", Map.of()).requestTimeout())
                .isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void the_environment_wins_over_the_file() {
        ModelSettings s = load("models: {requestTimeout: 90s}\n", Map.of("BATON_MODEL_TIMEOUT", "5m"));
        assertThat(s.requestTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(load("server: {port: 0}\n", Map.of("BATON_MODEL_TIMEOUT", "PT10M"))
                        .requestTimeout())
                .isEqualTo(Duration.ofMinutes(10));
        // blank is unset, as for the other variables
        assertThat(load("models: {requestTimeout: 90s}\n", Map.of("BATON_MODEL_TIMEOUT", " "))
                        .requestTimeout())
                .isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void a_bad_value_in_the_file_stops_loading_with_its_line_and_key() {
        assertThatThrownBy(() -> load("server: {port: 0}\nmodels:\n  requestTimeout: 0s\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("baton.yaml:3: models.requestTimeout must be longer than zero, e.g. 90s or PT2M");
        assertThatThrownBy(() -> load("models:\n  requestTimeout: soon\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("baton.yaml:2: models: 'requestTimeout: soon' is not a duration");
        assertThatThrownBy(() -> load("models:\n  requestTimeout: 90\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("baton.yaml:2: models: 'requestTimeout: 90' needs a unit, e.g. 90s or 250ms");
        assertThatThrownBy(() -> load("models:\n  requestTimeout: -5s\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("baton.yaml:2: models: 'requestTimeout: -5s' must not be negative");
        assertThatThrownBy(() -> load("models:\n  requestTimeout: {seconds: 5}\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("models.requestTimeout must be a duration");
    }

    @Test
    void a_bad_value_in_the_environment_stops_loading_naming_the_variable() {
        assertThatThrownBy(() -> load("server: {port: 0}\n", Map.of("BATON_MODEL_TIMEOUT", "0s")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("BATON_MODEL_TIMEOUT must be longer than zero, e.g. 90s or PT2M, got '0s'");
        assertThatThrownBy(() -> load("server: {port: 0}\n", Map.of("BATON_MODEL_TIMEOUT", "120")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("'BATON_MODEL_TIMEOUT: 120' needs a unit, e.g. 120s or 250ms");
        assertThatThrownBy(() -> load("server: {port: 0}\n", Map.of("BATON_MODEL_TIMEOUT", "forever")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("'BATON_MODEL_TIMEOUT: forever' is not a duration");
    }

    @Test
    void settings_built_in_code_refuse_a_timeout_that_is_not_positive() {
        assertThatThrownBy(() -> new ModelSettings("simulator:default", null, null, Map.of(), null, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("models.requestTimeout must be positive");
        assertThat(new ModelSettings("simulator:default", null, null, Map.of()).requestTimeout())
                .isNull();
    }

    private static final String GEMINI = """
            models:
              default: compatible:gemini
              compatible:
                gemini:
                  baseUrl: https://generativelanguage.googleapis.com/v1beta/openai
                  apiKeyEnv: GEMINI_API_KEY
                  model: gemini-2.5-flash
            """;

    @Test
    void an_endpoint_key_can_come_from_the_environment_variable_it_names() {
        var gemini =
                load(GEMINI, Map.of("GEMINI_API_KEY", "AIza-test")).compatible().get("gemini");
        assertThat(gemini.apiKey()).isEqualTo("AIza-test");
        assertThat(gemini.model()).isEqualTo("gemini-2.5-flash");
    }

    @Test
    void a_named_variable_that_is_not_set_or_a_key_given_twice_stops_loading_with_its_line() {
        assertThatThrownBy(() -> load(GEMINI, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("baton.yaml:6:")
                .hasMessageContaining("names GEMINI_API_KEY, which is not set in the environment");
        assertThatThrownBy(() ->
                        load(GEMINI.replace("model: gemini", "apiKey: AIza-inline\n      model: gemini"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("set apiKey or apiKeyEnv, not both");
    }
}
