package dev.baton.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.runtime.config.ConfigException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The todo chatbot design's environment names as aliases of Baton's settings. */
class EnvAliasesTest {

    @Test
    void the_designs_names_set_history_tool_calls_timeout_and_model() {
        BatonConfig config = ConfigLoader.fromTree(
                MissingNode.getInstance(),
                Map.of(
                        "MAX_CONVERSATION_HISTORY", "12",
                        "MAX_TOOL_CALLS_PER_REQUEST", "3",
                        "OPENAI_TIMEOUT_SECONDS", "20",
                        "OPENAI_MODEL", "gpt-4o",
                        "OPENAI_API_KEY", "sk-test"));

        assertThat(config.limits().historyMessages()).isEqualTo(12);
        assertThat(config.limits().maxToolCallsPerTurn()).isEqualTo(3);
        assertThat(config.limits().llmTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.models().defaultModel()).isEqualTo("openai:gpt-4o");
        // the runtime's cascade reads the org limits from the tree, so the aliases must be there too
        assertThat(config.section("limits").path("historyMessages").asInt()).isEqualTo(12);
    }

    @Test
    void batons_own_settings_win_over_the_aliases() throws Exception {
        JsonNode yaml = ConfigLoader.yamlMapper()
                .readTree("limits: {historyMessages: 30}\nmodels: {default: simulator:default}");

        BatonConfig config = ConfigLoader.fromTree(
                yaml, Map.of("MAX_CONVERSATION_HISTORY", "12", "OPENAI_MODEL", "gpt-4o", "OPENAI_API_KEY", "sk"));

        assertThat(config.limits().historyMessages()).isEqualTo(30);
        assertThat(config.models().defaultModel()).isEqualTo("simulator:default");
        assertThat(ConfigLoader.fromTree(
                                MissingNode.getInstance(), Map.of("OPENAI_MODEL", "x", "BATON_MODEL", "ollama:y"))
                        .models()
                        .defaultModel())
                .isEqualTo("ollama:y");
    }

    @Test
    void openai_model_without_an_openai_key_leaves_the_simulator() {
        BatonConfig config = ConfigLoader.fromTree(MissingNode.getInstance(), Map.of("OPENAI_MODEL", "gpt-4o"));

        assertThat(config.models().defaultModel()).isEqualTo("simulator:default");
    }

    @Test
    void bad_values_name_the_variable() {
        assertThatThrownBy(() ->
                        ConfigLoader.fromTree(MissingNode.getInstance(), Map.of("MAX_CONVERSATION_HISTORY", "lots")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("MAX_CONVERSATION_HISTORY must be a whole number");
        assertThatThrownBy(() -> ConfigLoader.fromTree(MissingNode.getInstance(), Map.of("OPENAI_TEMPERATURE", "3")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("OPENAI_TEMPERATURE must be 0-2");
    }
}
