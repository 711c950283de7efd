package dev.baton.providers.resolver;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelResolver;
import dev.baton.providers.anthropic.AnthropicConfig;
import dev.baton.providers.anthropic.AnthropicModelGateway;
import dev.baton.providers.azure.AzureOpenAiConfig;
import dev.baton.providers.azure.AzureOpenAiModelGateway;
import dev.baton.providers.ollama.OllamaConfig;
import dev.baton.providers.ollama.OllamaModelGateway;
import dev.baton.providers.openai.OpenAiCompatibleConfig;
import dev.baton.providers.openai.OpenAiModelGateway;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves "provider:model" references (DESIGN §8) against the configured endpoints:
 *
 * <ul>
 *   <li>{@code openai:<model>} — OpenAI's API; needs {@link Builder#openAi(OpenAiCompatibleConfig)}.
 *   <li>{@code compatible:<name>} — the named OpenAI-compatible endpoint with its configured default model;
 *       {@code compatible:<name>/<model>} picks the model explicitly. The name ends at the first {@code /}, so
 *       models may contain slashes and colons ({@code compatible:openrouter/meta-llama/llama-3.1-8b},
 *       {@code compatible:ollama/llama3.1:8b}).
 *   <li>{@code simulator:<model>} — an OpenAI gateway on the simulator's base URL, which the server passes in
 *       after starting the simulator.
 *   <li>{@code anthropic:<model>} — Anthropic's Messages API; needs {@link Builder#anthropic(AnthropicConfig)}.
 *   <li>{@code ollama:<model>} — an Ollama server's native chat API; needs {@link Builder#ollama(OllamaConfig)}.
 *       Models may contain colons ({@code ollama:llama3.1:8b}).
 *   <li>{@code azure:<deployment>} — an Azure OpenAI deployment; needs {@link Builder#azure(AzureOpenAiConfig)}.
 *       {@code azure:default} names the configured default deployment.
 * </ul>
 *
 * Gateways are created on first use and cached per endpoint, so every reference to one endpoint shares its
 * connection pool. Thread-safe. {@link #close()} closes the gateways it created.
 */
public final class ConfiguredModelResolver implements ModelResolver, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConfiguredModelResolver.class);

    /**
     * A named compatible endpoint.
     *
     * @param defaultModel the model used for {@code compatible:<name>} without {@code /<model>}; may be null
     */
    public record CompatibleEndpoint(OpenAiCompatibleConfig config, String defaultModel) {
        public CompatibleEndpoint {
            Objects.requireNonNull(config, "config");
            defaultModel = defaultModel == null || defaultModel.isBlank() ? null : defaultModel;
        }
    }

    private final OpenAiCompatibleConfig openAi;
    private final Map<String, CompatibleEndpoint> compatible;
    private final OpenAiCompatibleConfig simulator;
    private final AnthropicConfig anthropic;
    private final OllamaConfig ollama;
    private final AzureOpenAiConfig azure;
    private final Map<String, ModelGateway> gateways = new ConcurrentHashMap<>();

    private ConfiguredModelResolver(Builder builder) {
        this.openAi = builder.openAi;
        this.compatible = Map.copyOf(builder.compatible);
        this.simulator = builder.simulator;
        this.anthropic = builder.anthropic;
        this.ollama = builder.ollama;
        this.azure = builder.azure;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public ModelBinding resolve(String reference) {
        if (reference == null || reference.isBlank()) {
            throw new IllegalArgumentException("a model reference is required, as provider:model");
        }
        int colon = reference.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException(
                    "model reference '" + reference + "' is not of the form provider:model (e.g. openai:gpt-4o-mini)");
        }
        var provider = reference.substring(0, colon);
        var rest = reference.substring(colon + 1);
        return switch (provider) {
            case "openai" -> {
                var config = required(openAi, reference, "no OpenAI API key is configured");
                yield bind(reference, "openai", config, model(rest, reference));
            }
            case "simulator" -> {
                var config = required(simulator, reference, "the simulator is not running");
                yield bind(reference, "simulator", config, model(rest, reference));
            }
            case "compatible" -> resolveCompatible(reference, rest);
            case "anthropic" -> {
                var config = required(anthropic, reference, "no Anthropic API key is configured");
                yield bind(reference, "anthropic", model(rest, reference), () -> new AnthropicModelGateway(config));
            }
            case "ollama" -> {
                var config = required(ollama, reference, "no Ollama server is configured");
                yield bind(reference, "ollama", model(rest, reference), () -> new OllamaModelGateway(config));
            }
            case "azure" -> resolveAzure(reference, rest);
            default ->
                throw new IllegalArgumentException("unknown model provider '" + provider + "' in '" + reference
                        + "'; known providers: openai, compatible, anthropic, ollama, azure, simulator");
        };
    }

    private ModelBinding resolveCompatible(String reference, String rest) {
        int slash = rest.indexOf('/');
        var name = slash < 0 ? rest : rest.substring(0, slash);
        var endpoint = compatible.get(name);
        if (endpoint == null) {
            throw new IllegalArgumentException("no compatible endpoint named '" + name + "' is configured for '"
                    + reference + "'; configured: " + compatible.keySet());
        }
        String model;
        if (slash < 0) {
            if (endpoint.defaultModel() == null) {
                throw new IllegalArgumentException("compatible endpoint '" + name
                        + "' has no default model; name one as compatible:" + name + "/<model>");
            }
            model = endpoint.defaultModel();
        } else {
            model = model(rest.substring(slash + 1), reference);
        }
        return bind(reference, "compatible:" + name, endpoint.config(), model);
    }

    /** An Azure deployment is its own endpoint (the deployment is in the URL), so each gets its own gateway. */
    private ModelBinding resolveAzure(String reference, String rest) {
        var config = required(azure, reference, "no Azure OpenAI endpoint and key are configured");
        var deployment = model(rest, reference);
        if (deployment.equals("default")) {
            if (config.defaultDeployment() == null) {
                throw new IllegalArgumentException(
                        "cannot resolve '" + reference + "': no default Azure OpenAI deployment is configured");
            }
            deployment = config.defaultDeployment();
        }
        var name = deployment;
        return bind(reference, "azure:" + name, name, () -> new AzureOpenAiModelGateway(config, name));
    }

    private ModelBinding bind(String reference, String endpointKey, OpenAiCompatibleConfig config, String model) {
        return bind(reference, endpointKey, model, () -> new OpenAiModelGateway(config));
    }

    private ModelBinding bind(String reference, String endpointKey, String model, Supplier<ModelGateway> create) {
        var gateway = gateways.computeIfAbsent(endpointKey, key -> {
            var created = create.get();
            log.info("model gateway {} created: {}", key, created);
            return created;
        });
        return new ModelBinding(reference, gateway, model);
    }

    private static <C> C required(C config, String reference, String why) {
        if (config == null) {
            throw new IllegalArgumentException("cannot resolve '" + reference + "': " + why);
        }
        return config;
    }

    private static String model(String model, String reference) {
        if (model.isBlank()) {
            throw new IllegalArgumentException("model reference '" + reference + "' names no model");
        }
        return model;
    }

    @Override
    public void close() {
        gateways.values().forEach(gateway -> {
            if (gateway instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    log.warn("closing model gateway {} failed", gateway.provider(), e);
                }
            }
        });
        gateways.clear();
    }

    /** Collects the configured endpoints; all are optional. */
    public static final class Builder {
        private OpenAiCompatibleConfig openAi;
        private final Map<String, CompatibleEndpoint> compatible = new LinkedHashMap<>();
        private OpenAiCompatibleConfig simulator;
        private AnthropicConfig anthropic;
        private OllamaConfig ollama;
        private AzureOpenAiConfig azure;

        private Builder() {}

        /** Anthropic's Messages API, reached as {@code anthropic:<model>}. */
        public Builder anthropic(AnthropicConfig config) {
            this.anthropic = Objects.requireNonNull(config, "config");
            return this;
        }

        /** An Ollama server's native API, reached as {@code ollama:<model>}. */
        public Builder ollama(OllamaConfig config) {
            this.ollama = Objects.requireNonNull(config, "config");
            return this;
        }

        /** An Azure OpenAI resource, whose deployments are reached as {@code azure:<deployment>}. */
        public Builder azure(AzureOpenAiConfig config) {
            this.azure = Objects.requireNonNull(config, "config");
            return this;
        }

        /** OpenAI's API, usually {@link OpenAiCompatibleConfig#openAi(String)}. */
        public Builder openAi(OpenAiCompatibleConfig config) {
            this.openAi = Objects.requireNonNull(config, "config");
            return this;
        }

        /** A compatible endpoint reachable as {@code compatible:<name>}; its config's name is its provider name. */
        public Builder compatible(String name, OpenAiCompatibleConfig config, String defaultModel) {
            if (name == null || name.isBlank() || name.contains("/") || name.contains(":")) {
                throw new IllegalArgumentException(
                        "a compatible endpoint name is non-blank without '/' or ':', got " + name);
            }
            compatible.put(name, new CompatibleEndpoint(config, defaultModel));
            return this;
        }

        /** The running simulator, e.g. {@code http://127.0.0.1:PORT/v1}. It needs no key. */
        public Builder simulator(String baseUrl) {
            return simulator(baseUrl, null);
        }

        /**
         * The running simulator, with an upper bound for one call.
         *
         * @param requestTimeout null for {@link OpenAiCompatibleConfig#DEFAULT_REQUEST_TIMEOUT}
         */
        public Builder simulator(String baseUrl, Duration requestTimeout) {
            this.simulator = new OpenAiCompatibleConfig("simulator", baseUrl, "simulator", requestTimeout, null, null);
            return this;
        }

        public ConfiguredModelResolver build() {
            return new ConfiguredModelResolver(this);
        }
    }
}
