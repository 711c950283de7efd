package dev.baton.server.config;

import java.util.Map;

/**
 * Which models the server can reach.
 *
 * @param defaultModel the "provider:model" used by agents that say {@code model: default}
 * @param openAiApiKey null when no key is configured
 * @param openAiBaseUrl the OpenAI (or OpenAI-compatible) base URL; null means the vendor's own
 * @param compatible named OpenAI-compatible endpoints, referenced as "compatible:NAME"
 */
public record ModelSettings(
        String defaultModel, String openAiApiKey, String openAiBaseUrl, Map<String, CompatibleEndpoint> compatible) {

    public record CompatibleEndpoint(String baseUrl, String apiKey, String model) {}

    public ModelSettings {
        compatible = Map.copyOf(compatible == null ? Map.of() : compatible);
    }

    /** True when neither a key nor a base URL for a real provider was given: the server runs on the simulator. */
    public boolean simulatorOnly() {
        return isBlank(openAiApiKey) && isBlank(openAiBaseUrl) && compatible.isEmpty();
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
