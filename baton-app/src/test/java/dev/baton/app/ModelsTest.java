package dev.baton.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.app.config.ModelSettings;
import dev.baton.app.config.ProviderSettings;
import dev.baton.core.model.ModelGateway;
import dev.baton.providers.anthropic.AnthropicModelGateway;
import dev.baton.providers.ollama.OllamaModelGateway;
import dev.baton.providers.openai.OpenAiModelGateway;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code models.requestTimeout} reaches the gateway of every provider the resolver builds. */
class ModelsTest {

    private static final ProviderSettings ALL_NATIVE = new ProviderSettings(
            new ProviderSettings.Anthropic("sk-ant", "http://127.0.0.1:1/v1", null, null, null),
            new ProviderSettings.Ollama("http://127.0.0.1:2", null),
            new ProviderSettings.Azure("https://res.openai.azure.com", "az", "dep", null));

    private static ModelSettings models(Duration requestTimeout) {
        return new ModelSettings(
                "openai:gpt-4o-mini",
                "sk-openai",
                "http://127.0.0.1:3/v1",
                Map.of("local", new ModelSettings.CompatibleEndpoint("http://127.0.0.1:4/v1", null, "llama")),
                null,
                requestTimeout);
    }

    @Test
    void the_configured_bound_applies_to_every_provider() {
        Duration bound = Duration.ofMinutes(5);
        try (ConfiguredModelResolver resolver = Models.resolver(models(bound), ALL_NATIVE, "http://127.0.0.1:5/v1")) {
            assertThat(openAi(resolver, "openai:gpt-4o").requestTimeout()).isEqualTo(bound);
            assertThat(openAi(resolver, "compatible:local").requestTimeout()).isEqualTo(bound);
            assertThat(openAi(resolver, "simulator:default").requestTimeout()).isEqualTo(bound);
            assertThat(((AnthropicModelGateway) gateway(resolver, "anthropic:claude-sonnet-4-5"))
                            .config()
                            .requestTimeout())
                    .isEqualTo(bound);
            assertThat(((OllamaModelGateway) gateway(resolver, "ollama:llama3.1"))
                            .config()
                            .requestTimeout())
                    .isEqualTo(bound);
            // the Azure gateway keeps only its OpenAI wire, which it shows
            assertThat(gateway(resolver, "azure:default").toString()).contains("requestTimeout=PT5M,");
        }
    }

    @Test
    void without_one_each_provider_keeps_its_own_default() {
        try (ConfiguredModelResolver resolver = Models.resolver(models(null), ALL_NATIVE, "http://127.0.0.1:5/v1")) {
            assertThat(openAi(resolver, "openai:gpt-4o").requestTimeout()).isEqualTo(Duration.ofSeconds(60));
            assertThat(openAi(resolver, "compatible:local").requestTimeout()).isEqualTo(Duration.ofSeconds(60));
            assertThat(openAi(resolver, "simulator:default").requestTimeout()).isEqualTo(Duration.ofSeconds(60));
            assertThat(((AnthropicModelGateway) gateway(resolver, "anthropic:claude-sonnet-4-5"))
                            .config()
                            .requestTimeout())
                    .isEqualTo(Duration.ofSeconds(60));
            assertThat(((OllamaModelGateway) gateway(resolver, "ollama:llama3.1"))
                            .config()
                            .requestTimeout())
                    .isEqualTo(Duration.ofSeconds(120));
            assertThat(gateway(resolver, "azure:default").toString()).contains("requestTimeout=PT1M,");
        }
    }

    private static ModelGateway gateway(ConfiguredModelResolver resolver, String reference) {
        return resolver.resolve(reference).gateway();
    }

    private static dev.baton.providers.openai.OpenAiCompatibleConfig openAi(
            ConfiguredModelResolver resolver, String reference) {
        return ((OpenAiModelGateway) gateway(resolver, reference)).config();
    }
}
