package dev.baton.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import dev.baton.core.config.Durations;
import dev.baton.runtime.config.ConfigException;
import java.time.Duration;
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
 * @param requestTimeout the longest one model call may take on any provider ({@code models.requestTimeout}, or
 *     {@code BATON_MODEL_TIMEOUT}); a call ends at the shorter of this and the agent's {@code llmTimeout}. Null for
 *     each provider's own bound (60 s; Ollama's 120 s, since local models load on first use)
 */
public record ModelSettings(
        String defaultModel,
        String openAiApiKey,
        String openAiBaseUrl,
        Map<String, CompatibleEndpoint> compatible,
        Double temperature,
        Duration requestTimeout) {

    /** The keys of baton.yaml's {@code models:} section read here ({@link ProviderSettings} reads the others). */
    public static final List<String> KEYS = List.of("default", "openai", "compatible", "temperature", "requestTimeout");

    /** The environment variable that sets {@code models.requestTimeout}; it wins over the file. */
    public static final String TIMEOUT_VARIABLE = "BATON_MODEL_TIMEOUT";

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
        if (requestTimeout != null && !requestTimeout.isPositive())
            throw new IllegalArgumentException("models.requestTimeout must be positive, got " + requestTimeout);
    }

    /** Settings that leave the time limit of a call to each provider. */
    public ModelSettings(
            String defaultModel,
            String openAiApiKey,
            String openAiBaseUrl,
            Map<String, CompatibleEndpoint> compatible,
            Double temperature) {
        this(defaultModel, openAiApiKey, openAiBaseUrl, compatible, temperature, null);
    }

    /** Settings that leave the temperature and the time limit of a call to each provider. */
    public ModelSettings(
            String defaultModel,
            String openAiApiKey,
            String openAiBaseUrl,
            Map<String, CompatibleEndpoint> compatible) {
        this(defaultModel, openAiApiKey, openAiBaseUrl, compatible, null, null);
    }

    /**
     * Reads {@code models.default}, {@code models.openai}, {@code models.compatible}, {@code models.temperature} and
     * {@code models.requestTimeout}, with {@code BATON_MODEL}, {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL} and
     * {@code BATON_MODEL_TIMEOUT} on top.
     */
    /**
     * An endpoint's key: {@code apiKey} as written, or {@code apiKeyEnv}, the name of the environment variable that
     * holds it (so that a key such as Gemini's need not be written into baton.yaml). Both at once is ambiguous.
     */
    private static String endpointKey(ConfigSection c, String where, Map<String, String> env) {
        String variable = c.text("apiKeyEnv");
        if (variable == null) return c.text("apiKey");
        if (c.text("apiKey") != null) throw c.invalid("apiKeyEnv", "set apiKey or apiKeyEnv, not both");
        String key = env.get(variable);
        if (key == null || key.isBlank())
            throw c.invalid("apiKeyEnv", "names " + variable + ", which is not set in the environment");
        return key;
    }

    public static ModelSettings parse(JsonNode models, Map<String, String> env) {
        ConfigSection s = ConfigSection.part(models, "models", KEYS);
        ConfigSection openai = s.section("openai", "apiKey", "baseUrl");
        String apiKey = first(env.get("OPENAI_API_KEY"), openai.text("apiKey"));
        String baseUrl = first(env.get("OPENAI_BASE_URL"), openai.text("baseUrl"));
        Map<String, CompatibleEndpoint> compatible = new LinkedHashMap<>();
        JsonNode named = s.get("compatible");
        if (!named.isMissingNode() && !named.isNull() && !named.isObject())
            throw s.invalid("compatible", "must map endpoint names to {baseUrl, apiKey or apiKeyEnv, model}");
        named.properties().forEach(e -> {
            String where = "models.compatible." + e.getKey();
            ConfigSection c = ConfigSection.of(e.getValue(), where, "baseUrl", "apiKey", "apiKeyEnv", "model");
            if (c.text("baseUrl") == null)
                throw dev.baton.core.config.ConfigProblem.at(named, e.getKey(), where + " needs a baseUrl");
            compatible.put(
                    e.getKey(), new CompatibleEndpoint(c.text("baseUrl"), endpointKey(c, where, env), c.text("model")));
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
        return new ModelSettings(defaultModel, apiKey, baseUrl, compatible, temperature, requestTimeout(s, env));
    }

    /** {@code BATON_MODEL_TIMEOUT}, else {@code models.requestTimeout}, else null; zero is refused in both. */
    private static Duration requestTimeout(ConfigSection s, Map<String, String> env) {
        String fromEnv = env.get(TIMEOUT_VARIABLE);
        if (!isBlank(fromEnv)) {
            Duration d;
            try {
                d = Durations.parse(fromEnv, TIMEOUT_VARIABLE);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
            if (d.isZero())
                throw new ConfigException(
                        TIMEOUT_VARIABLE + " must be longer than zero, e.g. 90s or PT2M, got '" + fromEnv + "'");
            return d;
        }
        Duration d = s.duration("requestTimeout", null);
        if (d != null && d.isZero()) throw s.invalid("requestTimeout", "must be longer than zero, e.g. 90s or PT2M");
        return d;
    }

    /** True when neither a key nor a base URL for a real provider was given: the server runs on the simulator. */
    public boolean simulatorOnly() {
        return isBlank(openAiApiKey) && isBlank(openAiBaseUrl) && compatible.isEmpty();
    }

    @Override
    public String toString() {
        return "ModelSettings[defaultModel=" + defaultModel + ", openAiApiKey="
                + (openAiApiKey == null ? "none" : "***") + ", openAiBaseUrl=" + openAiBaseUrl + ", compatible="
                + compatible + ", temperature=" + temperature + ", requestTimeout=" + requestTimeout + "]";
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String first(String a, String b) {
        if (!isBlank(a)) return a.strip();
        return isBlank(b) ? null : b.strip();
    }
}
