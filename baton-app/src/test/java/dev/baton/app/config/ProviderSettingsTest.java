package dev.baton.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProviderSettingsTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ModelSettings NO_OPENAI = new ModelSettings("simulator:default", null, null, Map.of());

    private static JsonNode models(String yaml) throws Exception {
        return YAML.readTree(yaml).path("models");
    }

    @Test
    void nothing_configured_means_no_native_provider_and_the_simulator_stays_the_default() {
        var settings = ProviderSettings.from(MissingNode.getInstance(), Map.of());

        assertThat(settings.any()).isFalse();
        assertThat(settings.defaultModel(NO_OPENAI)).isEqualTo("simulator:default");
    }

    @Test
    void the_yaml_sections_configure_each_provider() throws Exception {
        var settings = ProviderSettings.from(models("""
                        models:
                          anthropic: {apiKey: sk-ant-yaml, baseUrl: "http://proxy/v1", maxTokens: 2048, model: claude-x}
                          ollama: {baseUrl: "http://gpu-box:11434"}
                          azure: {endpoint: "https://r.openai.azure.com", apiKey: az, deployment: gpt4o, apiVersion: 2025-01-01}
                        """), Map.of());

        assertThat(settings.anthropic().apiKey()).isEqualTo("sk-ant-yaml");
        assertThat(settings.anthropic().baseUrl()).isEqualTo("http://proxy/v1");
        assertThat(settings.anthropic().maxTokens()).isEqualTo(2048);
        assertThat(settings.ollama().baseUrl()).isEqualTo("http://gpu-box:11434");
        assertThat(settings.ollama().model()).isEqualTo("llama3.1");
        assertThat(settings.azure().deployment()).isEqualTo("gpt4o");
        assertThat(settings.azure().apiVersion()).isEqualTo("2025-01-01");
        assertThat(settings.defaultModel(NO_OPENAI)).isEqualTo("anthropic:claude-x");
        assertThat(settings.toString()).doesNotContain("sk-ant-yaml").doesNotContain("apiKey=az");
    }

    @Test
    void the_environment_overrides_the_yaml_and_alone_is_enough() throws Exception {
        var fromEnv = ProviderSettings.from(
                models("models: {anthropic: {apiKey: from-yaml}}"),
                Map.of(
                        "ANTHROPIC_API_KEY", "from-env",
                        "OLLAMA_BASE_URL", "http://127.0.0.1:11434",
                        "AZURE_OPENAI_ENDPOINT", "https://e.openai.azure.com",
                        "AZURE_OPENAI_API_KEY", "k",
                        "AZURE_OPENAI_DEPLOYMENT", "dep"));

        assertThat(fromEnv.anthropic().apiKey()).isEqualTo("from-env");
        assertThat(fromEnv.ollama().baseUrl()).isEqualTo("http://127.0.0.1:11434");
        assertThat(fromEnv.azure().endpoint()).isEqualTo("https://e.openai.azure.com");
        assertThat(fromEnv.azure().deployment()).isEqualTo("dep");
    }

    @Test
    void an_explicit_default_or_an_openai_key_wins_over_the_native_providers() throws Exception {
        var settings = ProviderSettings.from(MissingNode.getInstance(), Map.of("OLLAMA_BASE_URL", "http://h:11434"));

        assertThat(settings.defaultModel(NO_OPENAI)).isEqualTo("ollama:llama3.1");
        assertThat(settings.defaultModel(new ModelSettings("anthropic:claude-y", null, null, Map.of())))
                .isEqualTo("anthropic:claude-y");
        assertThat(settings.defaultModel(new ModelSettings("openai:gpt-4o-mini", "sk", null, Map.of())))
                .isEqualTo("openai:gpt-4o-mini");
    }

    @Test
    void half_an_azure_configuration_is_refused_with_what_is_missing() throws Exception {
        assertThatThrownBy(() -> ProviderSettings.from(
                        models("models: {azure: {endpoint: \"https://r.openai.azure.com\"}}"), Map.of()))
                .isInstanceOf(dev.baton.core.config.ConfigProblem.class)
                .hasMessageContaining("AZURE_OPENAI_API_KEY");
    }
}
