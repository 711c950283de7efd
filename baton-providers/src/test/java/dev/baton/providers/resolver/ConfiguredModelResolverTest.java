package dev.baton.providers.resolver;

import static dev.baton.providers.openai.OpenAiCompatibleConfig.compatible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.providers.openai.OpenAiCompatibleConfig;
import dev.baton.providers.openai.OpenAiModelGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConfiguredModelResolverTest {

    private final ConfiguredModelResolver resolver = ConfiguredModelResolver.builder()
            .openAi(OpenAiCompatibleConfig.openAi("sk-test"))
            .compatible("ollama", compatible("ollama", "http://127.0.0.1:11434/v1", null), "llama3.1")
            .compatible("openrouter", compatible("openrouter", "https://openrouter.ai/api/v1", "k"), null)
            .simulator("http://127.0.0.1:9/v1")
            .build();

    @AfterEach
    void close() {
        resolver.close();
    }

    @Test
    void openai_references_bind_the_model_to_the_openai_gateway() {
        var binding = resolver.resolve("openai:gpt-4o-mini");

        assertThat(binding.reference()).isEqualTo("openai:gpt-4o-mini");
        assertThat(binding.model()).isEqualTo("gpt-4o-mini");
        assertThat(binding.gateway().provider()).isEqualTo("openai");
        assertThat(((OpenAiModelGateway) binding.gateway()).config().baseUrl())
                .isEqualTo(OpenAiCompatibleConfig.OPENAI_BASE_URL);
    }

    @Test
    void a_compatible_name_alone_uses_the_endpoints_default_model() {
        var binding = resolver.resolve("compatible:ollama");

        assertThat(binding.model()).isEqualTo("llama3.1");
        assertThat(binding.gateway().provider()).isEqualTo("ollama");
        assertThat(((OpenAiModelGateway) binding.gateway()).config().baseUrl()).isEqualTo("http://127.0.0.1:11434/v1");
    }

    @Test
    void a_compatible_model_may_be_named_and_may_contain_slashes_and_colons() {
        assertThat(resolver.resolve("compatible:ollama/llama3.1:8b").model()).isEqualTo("llama3.1:8b");
        assertThat(resolver.resolve("compatible:openrouter/meta-llama/llama-3.1-8b")
                        .model())
                .isEqualTo("meta-llama/llama-3.1-8b");
    }

    @Test
    void a_compatible_endpoint_without_default_model_needs_one_in_the_reference() {
        assertThatThrownBy(() -> resolver.resolve("compatible:openrouter"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no default model");
    }

    @Test
    void simulator_references_point_at_the_simulator_url() {
        var binding = resolver.resolve("simulator:default");

        assertThat(binding.model()).isEqualTo("default");
        assertThat(binding.gateway().provider()).isEqualTo("simulator");
        assertThat(((OpenAiModelGateway) binding.gateway()).config().baseUrl()).isEqualTo("http://127.0.0.1:9/v1");
    }

    @Test
    void gateways_are_created_once_per_endpoint_and_shared_between_models() {
        var a = resolver.resolve("openai:gpt-4o-mini").gateway();
        var b = resolver.resolve("openai:gpt-4o").gateway();
        var c = resolver.resolve("compatible:ollama").gateway();
        var d = resolver.resolve("compatible:ollama/qwen2.5").gateway();

        assertThat(a).isSameAs(b);
        assertThat(c).isSameAs(d);
        assertThat(a).isNotSameAs(c);
    }

    @Test
    void unknown_providers_are_rejected_with_the_known_ones_listed() {
        assertThatThrownBy(() -> resolver.resolve("mystery:model-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown model provider 'mystery'")
                .hasMessageContaining("openai, compatible, anthropic, ollama, azure, simulator");
    }

    @Test
    void malformed_references_are_rejected() {
        assertThatThrownBy(() -> resolver.resolve("gpt-4o"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("provider:model");
        assertThatThrownBy(() -> resolver.resolve("openai:"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no model");
        assertThatThrownBy(() -> resolver.resolve("compatible:nowhere"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no compatible endpoint named 'nowhere'");
        assertThatThrownBy(() -> resolver.resolve(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void providers_that_are_not_configured_are_rejected() {
        try (var bare = ConfiguredModelResolver.builder().build()) {
            assertThatThrownBy(() -> bare.resolve("openai:gpt-4o-mini"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no OpenAI API key");
            assertThatThrownBy(() -> bare.resolve("simulator:default"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("simulator is not running");
        }
    }

    @Test
    void the_config_never_prints_the_api_key() {
        assertThat(OpenAiCompatibleConfig.openAi("sk-secret-123").toString()).doesNotContain("sk-secret-123");
    }
}
