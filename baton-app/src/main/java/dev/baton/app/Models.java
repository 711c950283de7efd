package dev.baton.app;

import dev.baton.app.config.ModelSettings;
import dev.baton.app.config.ProviderSettings;
import dev.baton.providers.anthropic.AnthropicConfig;
import dev.baton.providers.azure.AzureOpenAiConfig;
import dev.baton.providers.ollama.OllamaConfig;
import dev.baton.providers.openai.OpenAiCompatibleConfig;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import java.time.Duration;

/**
 * Builds the model resolver from configuration: OpenAI (or a compatible base URL), named endpoints, Anthropic,
 * Ollama, Azure OpenAI, simulator. Every one of them gets {@code models.requestTimeout} as the upper bound of one
 * call, or its own default when it is not set.
 */
public final class Models {
    private Models() {}

    /**
     * @param simulatorBaseUrl where "simulator:*" models are answered; null when no simulator runs
     */
    static ConfiguredModelResolver resolver(ModelSettings settings, String simulatorBaseUrl) {
        return resolver(settings, new ProviderSettings(null, null, null), simulatorBaseUrl);
    }

    /** @param providers Anthropic, Ollama and Azure OpenAI, each null when not configured */
    public static ConfiguredModelResolver resolver(
            ModelSettings settings, ProviderSettings providers, String simulatorBaseUrl) {
        ConfiguredModelResolver.Builder b = ConfiguredModelResolver.builder();
        Duration timeout = settings.requestTimeout(); // null: each config's own default
        if (providers.anthropic() != null) {
            ProviderSettings.Anthropic a = providers.anthropic();
            b.anthropic(new AnthropicConfig(
                    "anthropic",
                    a.baseUrl(),
                    a.apiKey(),
                    a.version(),
                    a.maxTokens() == null ? AnthropicConfig.DEFAULT_MAX_TOKENS : a.maxTokens(),
                    timeout,
                    null));
        }
        if (providers.ollama() != null)
            b.ollama(new OllamaConfig("ollama", providers.ollama().baseUrl(), timeout, null));
        if (providers.azure() != null) {
            ProviderSettings.Azure z = providers.azure();
            b.azure(new AzureOpenAiConfig(z.endpoint(), z.apiKey(), z.apiVersion(), z.deployment(), timeout));
        }
        if (settings.openAiApiKey() != null || settings.openAiBaseUrl() != null) {
            // OPENAI_BASE_URL alone points "openai:*" at an OpenAI-compatible server that needs no key (Ollama, vLLM)
            String baseUrl = settings.openAiBaseUrl() != null
                    ? settings.openAiBaseUrl()
                    : OpenAiCompatibleConfig.OPENAI_BASE_URL;
            b.openAi(new OpenAiCompatibleConfig("openai", baseUrl, settings.openAiApiKey(), timeout, null, null));
        }
        settings.compatible()
                .forEach((name, endpoint) -> b.compatible(
                        name,
                        OpenAiCompatibleConfig.compatible(name, endpoint.baseUrl(), endpoint.apiKey())
                                .withRequestTimeout(timeout),
                        endpoint.model()));
        if (simulatorBaseUrl != null) b.simulator(simulatorBaseUrl, timeout);
        return b.build();
    }
}
