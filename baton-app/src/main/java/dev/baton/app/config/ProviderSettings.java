package dev.baton.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.config.ConfigException;
import java.util.List;
import java.util.Map;

/**
 * The native providers besides OpenAI, read from the {@code models} section of baton.yaml with environment
 * overrides (the environment wins):
 *
 * <pre>{@code
 * models:
 *   anthropic: {apiKey: ..., baseUrl: ..., version: 2023-06-01, maxTokens: 4096, model: claude-sonnet-4-5}
 *   ollama:    {baseUrl: http://localhost:11434, model: llama3.1}
 *   azure:     {endpoint: https://RES.openai.azure.com, apiKey: ..., deployment: gpt-4o, apiVersion: 2024-10-21}
 * }</pre>
 *
 * Environment: {@code ANTHROPIC_API_KEY}, {@code ANTHROPIC_BASE_URL}, {@code OLLAMA_BASE_URL},
 * {@code AZURE_OPENAI_ENDPOINT}, {@code AZURE_OPENAI_API_KEY}, {@code AZURE_OPENAI_DEPLOYMENT},
 * {@code AZURE_OPENAI_API_VERSION}. A provider is configured when its key (Anthropic), base URL or section
 * (Ollama), or endpoint and key (Azure) are present; each field is null otherwise.
 */
public record ProviderSettings(Anthropic anthropic, Ollama ollama, Azure azure) {

    /** The keys of baton.yaml's {@code models:} section read here ({@link ModelSettings} reads the others). */
    public static final List<String> KEYS = List.of("anthropic", "ollama", "azure");

    /** @param model the model {@code anthropic:default} and a default agent model mean; null for the built-in one */
    public record Anthropic(String apiKey, String baseUrl, String version, Integer maxTokens, String model) {
        public static final String DEFAULT_MODEL = "claude-sonnet-4-5";

        public Anthropic {
            if (apiKey == null) throw new ConfigException("models.anthropic needs an apiKey (or ANTHROPIC_API_KEY)");
            if (maxTokens != null && maxTokens < 1)
                throw new ConfigException("models.anthropic.maxTokens must be >= 1");
            model = model == null ? DEFAULT_MODEL : model;
        }

        @Override
        public String toString() {
            return "Anthropic[baseUrl=" + baseUrl + ", apiKey=***, model=" + model + "]";
        }
    }

    /** @param baseUrl null means Ollama's default, http://localhost:11434 */
    public record Ollama(String baseUrl, String model) {
        public static final String DEFAULT_MODEL = "llama3.1";

        public Ollama {
            model = model == null ? DEFAULT_MODEL : model;
        }
    }

    /** @param deployment the deployment {@code azure:default} means; null when there is none */
    public record Azure(String endpoint, String apiKey, String deployment, String apiVersion) {
        public Azure {
            if (endpoint == null || apiKey == null) {
                throw new ConfigException("models.azure needs both an endpoint and an apiKey "
                        + "(or AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY)");
            }
        }

        @Override
        public String toString() {
            return "Azure[endpoint=" + endpoint + ", apiKey=***, deployment=" + deployment + "]";
        }
    }

    public static ProviderSettings from(BatonConfig config) {
        return from(config.section("models"), config.env());
    }

    public static ProviderSettings from(JsonNode models, Map<String, String> env) {
        ConfigSection s = ConfigSection.part(models, "models", KEYS);
        ConfigSection a = s.section("anthropic", "apiKey", "baseUrl", "version", "maxTokens", "model");
        String anthropicKey = first(env.get("ANTHROPIC_API_KEY"), a.text("apiKey"));
        Integer maxTokens = a.optionalInteger("maxTokens", 1);
        if (anthropicKey == null && !a.isEmpty())
            throw ConfigProblem.at(
                    models, "anthropic", "models.anthropic needs an apiKey (or ANTHROPIC_API_KEY in the environment)");
        Anthropic anthropic = anthropicKey == null
                ? null
                : new Anthropic(
                        anthropicKey,
                        first(env.get("ANTHROPIC_BASE_URL"), a.text("baseUrl")),
                        blankToNull(a.text("version")),
                        maxTokens,
                        blankToNull(a.text("model")));

        boolean ollamaSection = s.get("ollama").isObject();
        ConfigSection o = s.section("ollama", "baseUrl", "model");
        String ollamaUrl = first(env.get("OLLAMA_BASE_URL"), o.text("baseUrl"));
        Ollama ollama =
                ollamaUrl == null && !ollamaSection ? null : new Ollama(ollamaUrl, blankToNull(o.text("model")));

        ConfigSection z = s.section("azure", "endpoint", "apiKey", "deployment", "apiVersion");
        String endpoint = first(env.get("AZURE_OPENAI_ENDPOINT"), z.text("endpoint"));
        String azureKey = first(env.get("AZURE_OPENAI_API_KEY"), z.text("apiKey"));
        Azure azure;
        try {
            azure = endpoint == null && azureKey == null
                    ? null
                    : new Azure(
                            endpoint,
                            azureKey,
                            first(env.get("AZURE_OPENAI_DEPLOYMENT"), z.text("deployment")),
                            first(env.get("AZURE_OPENAI_API_VERSION"), z.text("apiVersion")));
        } catch (ConfigException e) {
            throw z.isEmpty() ? e : ConfigProblem.at(models, "azure", e.getMessage());
        }
        return new ProviderSettings(anthropic, ollama, azure);
    }

    /** True when at least one of these providers is configured: the server then needs no bundled simulator. */
    public boolean any() {
        return anthropic != null || ollama != null || azure != null;
    }

    /**
     * The model agents use by default. The configured one ({@code models.default}, {@code BATON_MODEL}) or
     * OpenAI's when they are set; otherwise, when only these providers are configured, the first of Anthropic,
     * Azure (its deployment) and Ollama, so that configuring one provider is enough to serve.
     */
    public String defaultModel(ModelSettings models) {
        if (!models.simulatorOnly() || !models.defaultModel().equals("simulator:default")) {
            return models.defaultModel();
        }
        if (anthropic != null) return "anthropic:" + anthropic.model();
        if (azure != null && azure.deployment() != null) return "azure:" + azure.deployment();
        if (ollama != null) return "ollama:" + ollama.model();
        return models.defaultModel();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String first(String a, String b) {
        return a != null && !a.isBlank() ? a : b;
    }
}
