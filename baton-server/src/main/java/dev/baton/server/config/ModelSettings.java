package dev.baton.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which models the server can reach.
 *
 * @param defaultModel the "provider:model" used by agents that say {@code model: default}
 * @param openAiApiKey null when no key is configured
 * @param openAiBaseUrl the OpenAI (or OpenAI-compatible) base URL; null means the vendor's own
 * @param compatible named OpenAI-compatible endpoints, referenced as "compatible:NAME"
 * @param temperature the sampling temperature (0–2) of agents whose file sets none ({@code models.temperature}, or
 *     the todo design's {@code OPENAI_TEMPERATURE}); null for each provider's default
 */
public record ModelSettings(
        String defaultModel,
        String openAiApiKey,
        String openAiBaseUrl,
        Map<String, CompatibleEndpoint> compatible,
        Double temperature) {

    /** The keys of baton.yaml's {@code models:} section read here ({@link ProviderSettings} reads the others). */
    public static final List<String> KEYS = List.of("default", "openai", "compatible", "temperature");

    public record CompatibleEndpoint(String baseUrl, String apiKey, String model) {
        @Override
        public String toString() {
            return "CompatibleEndpoint[baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "none" : "***")
                    + ", model=" + model + "]";
        }
    }

    public ModelSettings {
        compatible = Map.copyOf(compatible == null ? Map.of() : compatible);
        if (temperature != null && !(temperature >= 0 && temperature <= 2))
            throw new IllegalArgumentException("models.temperature must be 0-2, got " + temperature);
    }

    /** Settings that leave the temperature to each provider. */
    public ModelSettings(
            String defaultModel,
            String openAiApiKey,
            String openAiBaseUrl,
            Map<String, CompatibleEndpoint> compatible) {
        this(defaultModel, openAiApiKey, openAiBaseUrl, compatible, null);
    }

    /**
     * Reads {@code models.default}, {@code models.openai} and {@code models.compatible}, with {@code BATON_MODEL},
     * {@code OPENAI_API_KEY} and {@code OPENAI_BASE_URL} on top.
     */
    public static ModelSettings parse(JsonNode models, Map<String, String> env) {
        ConfigSection s = ConfigSection.part(models, "models", KEYS);
        ConfigSection openai = s.section("openai", "apiKey", "baseUrl");
        String apiKey = first(env.get("OPENAI_API_KEY"), openai.text("apiKey"));
        String baseUrl = first(env.get("OPENAI_BASE_URL"), openai.text("baseUrl"));
        Map<String, CompatibleEndpoint> compatible = new LinkedHashMap<>();
        JsonNode named = s.get("compatible");
        if (!named.isMissingNode() && !named.isNull() && !named.isObject())
            throw s.invalid("compatible", "must map endpoint names to {baseUrl, apiKey, model}");
        named.properties().forEach(e -> {
            ConfigSection c =
                    ConfigSection.of(e.getValue(), "models.compatible." + e.getKey(), "baseUrl", "apiKey", "model");
            if (c.text("baseUrl") == null)
                throw dev.baton.core.config.ConfigProblem.at(
                        named, e.getKey(), "models.compatible." + e.getKey() + " needs a baseUrl");
            compatible.put(e.getKey(), new CompatibleEndpoint(c.text("baseUrl"), c.text("apiKey"), c.text("model")));
        });
        boolean realProvider = apiKey != null || baseUrl != null;
        String defaultModel = first(env.get("BATON_MODEL"), s.text("default"));
        if (defaultModel == null) defaultModel = realProvider ? "openai:gpt-4o-mini" : "simulator:default";
        JsonNode t = s.get("temperature");
        Double temperature = null;
        if (!t.isMissingNode() && !t.isNull()) {
            if (!t.isNumber() || t.doubleValue() < 0 || t.doubleValue() > 2)
                throw s.invalid("temperature", "must be a number from 0 to 2");
            temperature = t.doubleValue();
        }
        return new ModelSettings(defaultModel, apiKey, baseUrl, compatible, temperature);
    }

    /** True when neither a key nor a base URL for a real provider was given: the server runs on the simulator. */
    public boolean simulatorOnly() {
        return isBlank(openAiApiKey) && isBlank(openAiBaseUrl) && compatible.isEmpty();
    }

    @Override
    public String toString() {
        return "ModelSettings[defaultModel=" + defaultModel + ", openAiApiKey="
                + (openAiApiKey == null ? "none" : "***") + ", openAiBaseUrl=" + openAiBaseUrl + ", compatible="
                + compatible + ", temperature=" + temperature + "]";
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String first(String a, String b) {
        if (!isBlank(a)) return a.strip();
        return isBlank(b) ? null : b.strip();
    }
}
