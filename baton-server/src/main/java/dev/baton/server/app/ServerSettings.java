package dev.baton.server.app;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleRegistry;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelResolver;
import dev.baton.learning.LearningModule;
import dev.baton.learning.agent.MemoryGuidanceModule;
import dev.baton.providers.pricing.PriceSettings;
import dev.baton.providers.pricing.PriceTable;
import dev.baton.providers.resilience.ResilienceConfig;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.redis.SharedTurnSettings;
import dev.baton.runtime.BatonBuilder;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.config.ConfigLoader;
import dev.baton.server.config.ProviderSettings;
import dev.baton.server.metrics.MetricsSettings;
import dev.baton.server.trace.TracingSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Everything the configuration asks of a server, read and checked before anything is opened: every section of
 * baton.yaml, the agents, their modules, and that each agent's model names a provider that is configured. {@code baton
 * serve} starts from this; {@code baton config check} reads it and stops.
 *
 * @param simulatorOnly no model provider is configured: the bundled simulator answers
 * @param defaultModel what {@code model: default} means
 * @param learningMemory the learning agent's memory module, set by the server once the learning domain is up
 */
public record ServerSettings(
        BatonConfig config,
        JwtSettings jwt,
        MetricsSettings metrics,
        TracingSettings tracing,
        ProviderSettings providers,
        boolean simulatorOnly,
        String defaultModel,
        ResilienceConfig resilience,
        PriceTable prices,
        RateLimitSettings rateLimits,
        BudgetSettings budgets,
        SharedTurnSettings turns,
        AgentRegistry agents,
        ModuleRegistry modules,
        AtomicReference<Module> learningMemory) {

    /** The same settings with other agents (an evaluation swaps one agent's model). */
    public ServerSettings withAgents(AgentRegistry changed) {
        return new ServerSettings(
                config,
                jwt,
                metrics,
                tracing,
                providers,
                simulatorOnly,
                defaultModel,
                resilience,
                prices,
                rateLimits,
                budgets,
                turns,
                changed,
                modules,
                learningMemory);
    }

    /** The agents shipped on the class path, in the order they are offered (the domains' jars bring their own). */
    static final List<String> BUILT_IN_AGENTS = List.of(
            "agents/tasks.yaml", "agents/study.yaml", LearningModule.LEARNING_AGENT, LearningModule.PLATFORM_AGENT);

    /** Where {@code simulator:*} models are reached while checking: only resolved, never called. */
    private static final String SIMULATOR_PLACEHOLDER = "http://127.0.0.1:1";

    /** Reads and checks {@code config}; a problem found in baton.yaml is reported without its line. */
    public static ServerSettings read(BatonConfig config) {
        return read(config, ConfigFile.none("baton.yaml"));
    }

    /**
     * Reads and checks {@code config}, which was loaded from {@code file}.
     *
     * @throws ConfigException naming the file, the line and the setting when something is wrong
     */
    public static ServerSettings read(BatonConfig config, ConfigFile file) {
        AgentRegistry agents = null;
        try {
            JwtSettings jwt = JwtSettings.parse(config.section(JwtSettings.SECTION), config.env(), config.jwtSecret());
            MetricsSettings metrics = MetricsSettings.parse(config.section(MetricsSettings.SECTION), config.env());
            TracingSettings tracing = TracingSettings.parse(config.section(TracingSettings.SECTION), config.env());
            ProviderSettings providers = ProviderSettings.from(config);
            boolean simulatorOnly = config.models().simulatorOnly() && !providers.any();
            String defaultModel = providers.defaultModel(config.models());
            ResilienceConfig resilience = ResilienceConfig.from(config.section(ResilienceConfig.SECTION));
            PriceTable prices = PriceSettings.parse(config.section(PriceSettings.SECTION));
            RateLimitSettings rateLimits =
                    RateLimitSettings.parse(config.section(RateLimitSettings.SECTION), config.env());
            BudgetSettings budgets = BudgetSettings.parse(config.section(BudgetSettings.SECTION));
            SharedTurnSettings turns = SharedTurnSettings.parse(config.section(SharedTurnSettings.SECTION));
            agents = AgentRegistry.load(BUILT_IN_AGENTS, config.agentDirs(), config.limits(), defaultModel)
                    .withDefault(config.defaultAgent())
                    .withDefaultTemperature(config.models().temperature());
            // the learning agent's memory module needs the learning domain, which exists only once the database is
            // open: registered now (so agent files are checked), bound by the server when it starts
            AtomicReference<Module> learningMemory = new AtomicReference<>();
            ModuleRegistry modules = ModuleRegistry.load(
                    config.section(ModuleRegistry.SECTION),
                    ServerSettings.class.getClassLoader(),
                    List.of(MemoryGuidanceModule.deferred(learningMemory::get)));
            modules.validate(agents.all());
            BatonBuilder.check(config.raw(), agents, config.env());
            return new ServerSettings(
                    config,
                    jwt,
                    metrics,
                    tracing,
                    providers,
                    simulatorOnly,
                    defaultModel,
                    resilience,
                    prices,
                    rateLimits,
                    budgets,
                    turns,
                    agents,
                    modules,
                    learningMemory);
        } catch (RuntimeException e) {
            throw explain(e, file, agents);
        }
    }

    /** {@code e} located in baton.yaml or an agent file when it is about one; else a configuration error as it is. */
    private static RuntimeException explain(RuntimeException e, ConfigFile file, AgentRegistry agents) {
        if (agents != null) {
            var located = agents.explain(e);
            if (located.isPresent()) return located.get();
        }
        RuntimeException explained = ConfigLoader.explain(file, e);
        if (explained instanceof ConfigException) return explained;
        if (e instanceof IllegalArgumentException) return new ConfigException(e.getMessage(), e);
        return e;
    }

    /**
     * {@link #checkModels(ModelResolver)} with a resolver of its own ({@code baton config check}): {@code simulator:*}
     * models count as served when no provider is configured, as the bundled simulator then runs.
     */
    public List<String> checkModels() {
        try (ConfiguredModelResolver resolver =
                Models.resolver(config.models(), providers, simulatorOnly ? SIMULATOR_PLACEHOLDER : null)) {
            return checkModels(resolver);
        }
    }

    /**
     * Checks that the default model and every agent's model name a provider that is configured (its key, base URL or
     * endpoint given): otherwise every turn of that agent would fail. Nothing is called: models are only resolved.
     *
     * @param resolver the providers the server has
     * @return what is not wrong enough to refuse to start but should be fixed: a model without a price, a fallback
     *     model that cannot be reached
     * @throws ConfigException naming the agent, the model and what to set
     */
    public List<String> checkModels(ModelResolver resolver) {
        List<String> warnings = new ArrayList<>();
        Map<String, String> used = new LinkedHashMap<>();
        used.put(defaultModel, defaultModelSource(config));
        for (AgentDefinition agent : agents.all()) used.putIfAbsent(agent.model(), "agent '" + agent.id() + "'");
        used.forEach((model, who) -> {
            ModelBinding binding;
            try {
                binding = resolver.resolve(model);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(
                        "the model of " + who + ", '" + model + "', cannot be used: " + e.getMessage() + advice(model),
                        e);
            }
            String provider = binding.gateway().provider();
            if (!provider.equals("simulator")
                    && prices.priceOf(provider, binding.model()).isEmpty())
                warnings.add("no price for " + provider + ":" + binding.model() + " (the model of " + who
                        + "): its calls count as 0 USD, so budgets do not limit them; add it under prices.models"
                        + " in baton.yaml");
        });
        for (AgentDefinition agent : agents.all()) {
            for (String fallback : agent.fallbackModels()) {
                try {
                    resolver.resolve(fallback);
                } catch (IllegalArgumentException e) {
                    warnings.add("agent '" + agent.id() + "': fallback model '" + fallback + "' is left out: "
                            + e.getMessage());
                }
            }
        }
        return warnings;
    }

    private static String defaultModelSource(BatonConfig config) {
        String env = config.env().get("BATON_MODEL");
        return env != null && !env.isBlank() ? "BATON_MODEL" : "models.default";
    }

    /** What to set for a provider that is not configured. */
    private static String advice(String model) {
        String provider = model.contains(":") ? model.substring(0, model.indexOf(':')) : "";
        return switch (provider) {
            case "openai" -> "; set OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)";
            case "anthropic" -> "; set ANTHROPIC_API_KEY (or models.anthropic.apiKey in baton.yaml)";
            case "ollama" -> "; set OLLAMA_BASE_URL (or add a models.ollama section to baton.yaml)";
            case "azure" -> "; set AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY (or models.azure in baton.yaml)";
            case "compatible" -> "; add the endpoint under models.compatible in baton.yaml";
            case "simulator" -> "; the bundled simulator answers only when no model provider is configured";
            default -> "";
        };
    }
}
