package dev.baton.providers.resolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.providers.anthropic.AnthropicConfig;
import dev.baton.providers.anthropic.AnthropicModelGateway;
import dev.baton.providers.azure.AzureOpenAiConfig;
import dev.baton.providers.azure.AzureOpenAiModelGateway;
import dev.baton.providers.ollama.OllamaConfig;
import dev.baton.providers.ollama.OllamaModelGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How "anthropic:", "ollama:" and "azure:" references resolve (DESIGN §8). */
class NativeProvidersResolverTest {

    private final ConfiguredModelResolver resolver = ConfiguredModelResolver.builder()
            .anthropic(AnthropicConfig.anthropic("sk-ant-test"))
            .ollama(OllamaConfig.of("http://127.0.0.1:11434/"))
            .azure(new AzureOpenAiConfig("https://res.openai.azure.com/", "az-key", null, "gpt4o-prod", null))
            .build();

    @AfterEach
    void close() {
        resolver.close();
    }

    @Test
    void anthropic_references_bind_the_model_to_one_shared_anthropic_gateway() {
        var sonnet = resolver.resolve("anthropic:claude-sonnet-4-5");
        var haiku = resolver.resolve("anthropic:claude-haiku-4-5");

        assertThat(sonnet.model()).isEqualTo("claude-sonnet-4-5");
        assertThat(sonnet.gateway()).isInstanceOf(AnthropicModelGateway.class).isSameAs(haiku.gateway());
        assertThat(sonnet.gateway().provider()).isEqualTo("anthropic");
        assertThat(((AnthropicModelGateway) sonnet.gateway()).config().baseUrl())
                .isEqualTo(AnthropicConfig.ANTHROPIC_BASE_URL);
    }

    @Test
    void ollama_models_keep_their_tags_and_the_base_url_loses_its_trailing_slash() {
        var binding = resolver.resolve("ollama:llama3.1:8b");

        assertThat(binding.model()).isEqualTo("llama3.1:8b");
        assertThat(binding.gateway().provider()).isEqualTo("ollama");
        assertThat(((OllamaModelGateway) binding.gateway()).config().baseUrl()).isEqualTo("http://127.0.0.1:11434");
    }

    @Test
    void each_azure_deployment_gets_its_own_gateway_and_default_names_the_configured_one() {
        var named = resolver.resolve("azure:gpt4o-mini-eu");
        var byDefault = resolver.resolve("azure:default");

        assertThat(named.model()).isEqualTo("gpt4o-mini-eu");
        assertThat(((AzureOpenAiModelGateway) named.gateway()).deployment()).isEqualTo("gpt4o-mini-eu");
        assertThat(byDefault.model()).isEqualTo("gpt4o-prod");
        assertThat(byDefault.gateway()).isNotSameAs(named.gateway());
        assertThat(byDefault.gateway().provider()).isEqualTo("azure");
    }

    @Test
    void an_unconfigured_native_provider_is_refused_with_the_reason() {
        try (var bare = ConfiguredModelResolver.builder().build()) {
            assertThatThrownBy(() -> bare.resolve("anthropic:claude-x"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no Anthropic API key");
            assertThatThrownBy(() -> bare.resolve("ollama:llama3.1"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no Ollama server");
            assertThatThrownBy(() -> bare.resolve("azure:dep"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no Azure OpenAI endpoint");
        }
    }

    @Test
    void configs_never_print_their_keys() {
        assertThat(AnthropicConfig.anthropic("sk-ant-secret").toString()).doesNotContain("sk-ant-secret");
        assertThat(AzureOpenAiConfig.of("https://r.openai.azure.com", "az-secret")
                        .toString())
                .doesNotContain("az-secret");
        assertThat(new AzureOpenAiModelGateway(AzureOpenAiConfig.of("https://r.openai.azure.com", "az-secret"), "d")
                        .toString())
                .doesNotContain("az-secret");
    }
}
