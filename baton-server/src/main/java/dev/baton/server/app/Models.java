package dev.baton.server.app;

import dev.baton.providers.openai.OpenAiCompatibleConfig;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.server.config.ModelSettings;

/** Builds the model resolver from configuration: OpenAI (or a compatible base URL), named endpoints, simulator. */
final class Models {
    private Models() {}

    /**
     * @param simulatorBaseUrl where "simulator:*" models are answered; null when no simulator runs
     */
    static ConfiguredModelResolver resolver(ModelSettings settings, String simulatorBaseUrl) {
        ConfiguredModelResolver.Builder b = ConfiguredModelResolver.builder();
        if (settings.openAiApiKey() != null || settings.openAiBaseUrl() != null) {
            // OPENAI_BASE_URL alone points "openai:*" at an OpenAI-compatible server that needs no key (Ollama, vLLM)
            String baseUrl = settings.openAiBaseUrl() != null
                    ? settings.openAiBaseUrl()
                    : OpenAiCompatibleConfig.OPENAI_BASE_URL;
            b.openAi(new OpenAiCompatibleConfig("openai", baseUrl, settings.openAiApiKey(), null, null, null));
        }
        settings.compatible()
                .forEach((name, endpoint) -> b.compatible(
                        name,
                        OpenAiCompatibleConfig.compatible(name, endpoint.baseUrl(), endpoint.apiKey()),
                        endpoint.model()));
        if (simulatorBaseUrl != null) b.simulator(simulatorBaseUrl);
        return b.build();
    }
}
