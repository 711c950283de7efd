package dev.baton.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ProviderSettings;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.core.hook.ModuleRegistry;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelResolver;
import dev.baton.domain.Domain;
import dev.baton.domain.Domains;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the configuration asks of a Baton, read and checked before anything is opened: every section of
 * baton.yaml the assembly reads, the domains on the class path and their sections, the agents, their modules, and
 * that each agent's model names a provider that is configured. {@link BatonApp} starts from this; {@code baton config
 * check} reads it and stops.
 *
 * @param simulatorOnly no model provider is configured: the bundled simulator answers
 * @param defaultModel what {@code model: default} means
 * @param domains the domains on the class path, in their order
 * @param domainSettings what each domain read from its section, by domain name (a domain without settings is absent)
 */
public record AppSettings(
        BatonConfig config,
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
        Domains domains,
        Map<String, Object> domainSettings) {

    public AppSettings {
        domainSettings = Collections.unmodifiableMap(new LinkedHashMap<>(domainSettings));
    }

    /** The same settings with other agents (an evaluation swaps one agent's model). */
    public AppSettings withAgents(AgentRegistry changed) {
        return new AppSettings(
                config,
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
                domains,
                domainSettings);
    }

    /** Where {@code simulator:*} models are reached while checking: only resolved, never called. */
    private static final String SIMULATOR_PLACEHOLDER = "http://127.0.0.1:1";

    /** Reads and checks {@code config} with the domains on the class path; a problem is reported without its line. */
    public static AppSettings read(BatonConfig config) {
        return read(config, ConfigFile.none("baton.yaml"));
    }

    /** Reads and checks {@code config}, loaded from {@code file}, with the domains on the class path. */
    public static AppSettings read(BatonConfig config, ConfigFile file) {
        return read(config, file, Domains.onClassPath());
    }

    /**
     * Reads and checks {@code config}, which was loaded from {@code file}.
     *
     * @param domains the domains to assemble (usually {@link Domains#onClassPath()})
     * @throws ConfigException naming the file, the line and the setting when something is wrong
     */
    public static AppSettings read(BatonConfig config, ConfigFile file, Domains domains) {
        AgentRegistry agents = null;
        try {
            ProviderSettings providers = ProviderSettings.from(config);
            boolean simulatorOnly = config.models().simulatorOnly() && !providers.any();
            String defaultModel = providers.defaultModel(config.models());
            ResilienceConfig resilience = ResilienceConfig.from(config.section(ResilienceConfig.SECTION));
            PriceTable prices = PriceSettings.parse(config.section(PriceSettings.SECTION));
            RateLimitSettings rateLimits =
                    RateLimitSettings.parse(config.section(RateLimitSettings.SECTION), config.env());
            BudgetSettings budgets = BudgetSettings.parse(config.section(BudgetSettings.SECTION));
            SharedTurnSettings turns = SharedTurnSettings.parse(config.section(SharedTurnSettings.SECTION));
            Map<String, Object> domainSettings = readDomainSettings(config, domains);
            agents = AgentRegistry.load(domains.agents(), config.agentDirs(), config.limits(), defaultModel)
                    .withDefault(config.defaultAgent())
                    .withDefaultTemperature(config.models().temperature());
            // the domains' own modules exist only once they are started: their ids are known now, so that agent files
            // naming them are checked; the started Baton registers the real factories (BatonApp)
            ModuleRegistry modules = modules(config, declaredModules(domains));
            modules.validate(agents.all());
            BatonBuilder.check(config.raw(), agents, config.env());
            return new AppSettings(
                    config,
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
                    domains,
                    domainSettings);
        } catch (RuntimeException e) {
            throw explain(e, file, agents);
        }
    }

    /** The module registry: the factories on the class path, then {@code domainModules}, with baton.yaml's defaults. */
    static ModuleRegistry modules(BatonConfig config, List<ModuleFactory> domainModules) {
        return ModuleRegistry.load(
                config.section(ModuleRegistry.SECTION), AppSettings.class.getClassLoader(), domainModules);
    }

    /** What each domain reads from its own section, by domain name. */
    private static Map<String, Object> readDomainSettings(BatonConfig config, Domains domains) {
        Map<String, Object> read = new HashMap<>();
        for (Domain domain : domains.all()) {
            String section = domain.configSection();
            JsonNode node = section == null ? MissingNode.getInstance() : config.section(section);
            Object settings = domain.readSettings(node);
            if (settings != null) read.put(domain.name(), settings);
        }
        return read;
    }

    /**
     * Stand-ins for the modules the domains declare, used only to check agents before the domains start: they are
     * never run (a started Baton registers the domains' real factories).
     */
    private static List<ModuleFactory> declaredModules(Domains domains) {
        List<ModuleFactory> declared = new ArrayList<>();
        for (Domain domain : domains.all()) {
            for (String id : domain.moduleIds()) {
                declared.add(new ModuleFactory() {
                    @Override
                    public String id() {
                        return id;
                    }

                    @Override
                    public Module create(JsonNode config) {
                        return new Module() {
                            @Override
                            public ModuleDescriptor descriptor() {
                                return ModuleDescriptor.of(id, Hook.BEFORE_AI);
                            }

                            @Override
                            public HookResult handle(HookContext context) {
                                throw new IllegalStateException(
                                        "module " + id + " of domain " + domain.name() + " is not started");
                            }
                        };
                    }
                });
            }
        }
        return declared;
    }

    /** {@code e}, thrown while reading a section of {@code file}, located in it; else a configuration error as it is. */
    public static RuntimeException locate(RuntimeException e, ConfigFile file) {
        return explain(e, file, null);
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
