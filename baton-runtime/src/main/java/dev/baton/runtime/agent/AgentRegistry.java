package dev.baton.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentConstraints;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.ApprovalRules;
import dev.baton.core.agent.AttachedResource;
import dev.baton.core.agent.SessionLimitOverrides;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.auth.Principal;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.core.hook.ModuleEntry;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.runtime.session.SessionLimits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The agents on offer, in the configuration's order: built-in ones from the classpath, then agents/*.yaml from
 * configured folders by file name (a folder's agent replaces a built-in one of the same id, in its place). That
 * order is the order everywhere: listings and the default agent. Limits cascade org → agent.
 */
public final class AgentRegistry {

    /**
     * The keys of an agent file, each read once into its typed field of {@link AgentDefinition} when the agent is
     * loaded: {@code constraints} ({@link AgentConstraints}), {@code modules} (each entry's {@code config} is handed to
     * its module's factory, which checks it when the modules are resolved), {@code approval} ({@link ApprovalRules}),
     * {@code context} ({@link AttachedResource}).
     */
    public static final List<String> KEYS = List.of(
            "id",
            "name",
            "description",
            "systemPrompt",
            "model",
            "fallbackModels",
            "temperature",
            "tools",
            "roles",
            "limits",
            "modules",
            "constraints",
            "approval",
            "context");

    /** In configuration order: never a hash map's order, which would differ between JVMs. */
    private final Map<String, AgentDefinition> agents;
    /** The configured default agent's id; null to use the first agent the caller may use. */
    private final String defaultAgentId;

    /** The files the agents were read from, to say where a problem found later (a module entry) is. */
    private final List<ConfigFile> files;

    private AgentRegistry(Map<String, AgentDefinition> agents, String defaultAgentId, List<ConfigFile> files) {
        this.agents = Collections.unmodifiableMap(new LinkedHashMap<>(agents));
        this.files = List.copyOf(files);
        if (defaultAgentId != null && !this.agents.containsKey(defaultAgentId))
            throw new ConfigException("default agent '" + defaultAgentId + "' is not configured (agents: "
                    + String.join(", ", this.agents.keySet()) + ")");
        this.defaultAgentId = defaultAgentId;
    }

    /** These agents, in this order (embedding Baton in code). */
    public static AgentRegistry of(List<AgentDefinition> agents) {
        Map<String, AgentDefinition> byId = new LinkedHashMap<>();
        for (AgentDefinition a : agents) {
            if (byId.put(a.id(), a) != null) throw new ConfigException("agent '" + a.id() + "' is defined twice");
        }
        return new AgentRegistry(byId, null, List.of());
    }

    /**
     * The same agents with {@code agentId} as the default for callers that name none.
     *
     * @throws ConfigException when no such agent is configured
     */
    public AgentRegistry withDefault(String agentId) {
        return new AgentRegistry(agents, agentId == null || agentId.isBlank() ? null : agentId.trim(), files);
    }

    /**
     * The same agents, those whose file sets no {@code temperature} asking for {@code temperature} (the server-wide
     * {@code models.temperature}); null leaves them at the provider's default.
     */
    public AgentRegistry withDefaultTemperature(Double temperature) {
        if (temperature == null) return this;
        checkTemperature(temperature, "models.temperature");
        Map<String, AgentDefinition> tempered = new LinkedHashMap<>();
        agents.forEach((id, a) -> tempered.put(id, a.temperature() != null ? a : a.withTemperature(temperature)));
        return new AgentRegistry(tempered, defaultAgentId, files);
    }

    private static void checkTemperature(double t, String where) {
        if (!(t >= 0 && t <= dev.baton.core.model.ModelRequest.MAX_TEMPERATURE))
            throw new ConfigException(where + " must be a number from 0 to 2, got " + t);
    }

    /**
     * The agent for a caller that names none: the configured default, or else the first agent in configuration
     * order that the caller may use.
     *
     * @throws RefusalException {@link Refusal.Forbidden} when the caller may not use the configured default;
     *     {@link Refusal.InvalidInput} when no agent is available to the caller
     */
    public AgentDefinition defaultFor(Principal principal) {
        if (defaultAgentId != null) {
            AgentDefinition d = agents.get(defaultAgentId);
            if (!mayUse(d, principal))
                throw RefusalException.forbidden(
                        "your role may not use the default agent '" + d.id() + "'; name an agentId you may use");
            return d;
        }
        return agents.values().stream()
                .filter(a -> mayUse(a, principal))
                .findFirst()
                .orElseThrow(() -> RefusalException.invalidInput("field 'agentId' is required"));
    }

    /**
     * Agents from YAML: {@code resources} on the class path first (a missing one is skipped: its module is not
     * there), then every *.yaml / *.yml of each folder in {@code dirs}, by file name.
     *
     * @param defaultModel the model of agents that name none (or {@code default})
     * @throws ConfigException for a folder that does not exist, a file that is not YAML, or an agent with an unknown
     *     key, a value of the wrong type or without an id or system prompt: "{@code agents/tutor.yaml:4: ...}"
     */
    public static AgentRegistry load(
            List<String> resources, List<Path> dirs, TurnLimits orgLimits, String defaultModel) {
        Map<String, AgentDefinition> found = new LinkedHashMap<>();
        List<ConfigFile> files = new ArrayList<>();
        for (String resource : resources) {
            try (InputStream in = AgentRegistry.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) continue;
                ConfigFile file = ConfigFile.read(in, resource);
                files.add(file);
                AgentDefinition a = parse(file, orgLimits, defaultModel);
                found.put(a.id(), a);
            } catch (IOException e) {
                throw new ConfigException("cannot read built-in agent " + resource + ": " + e.getMessage());
            }
        }
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) throw new ConfigException("agents folder not found: " + dir);
            try (Stream<Path> paths = Files.list(dir)) {
                for (Path f : paths.filter(p ->
                                p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                        .sorted()
                        .toList()) {
                    ConfigFile file = ConfigFile.read(f);
                    files.add(file);
                    AgentDefinition a = parse(file, orgLimits, defaultModel);
                    found.put(a.id(), a);
                }
            } catch (IOException e) {
                throw new ConfigException("cannot list " + dir + ": " + e.getMessage());
            }
        }
        return new AgentRegistry(found, null, files);
    }

    private static AgentDefinition parse(ConfigFile file, TurnLimits orgLimits, String defaultModel) {
        try {
            return parse(file.root(), orgLimits, defaultModel, file.source());
        } catch (IllegalArgumentException e) {
            throw file.explain(e).orElseGet(() -> new ConfigException(file.source() + ": " + e.getMessage(), e));
        }
    }

    /**
     * The configuration error {@code failure} stands for, located in the agent file it is about (a module entry an
     * agent lists, found wrong when the modules are resolved); empty when it is about none of them.
     */
    public Optional<ConfigException> explain(Throwable failure) {
        for (ConfigFile file : files) {
            Optional<ConfigException> located = file.explain(failure);
            if (located.isPresent()) return located;
        }
        return Optional.empty();
    }

    static AgentDefinition parse(JsonNode node, TurnLimits orgLimits, String defaultModel, String source) {
        if (node.isMissingNode())
            throw new ConfigException(source + ": the file is empty; an agent needs an id and a systemPrompt");
        ConfigSection s = ConfigSection.of(node, "", KEYS);
        String id = required(s, "id", source);
        String model = s.text("model", "default");
        if (model.isBlank() || model.equals("default")) model = defaultModel;
        JsonNode limits = s.get("limits");
        if (!limits.isMissingNode() && !limits.isNull() && !limits.isObject())
            throw s.invalid("limits", "must be a mapping of limit names to values");
        SessionLimits.checkLimitKeys(limits, "limits");
        SessionLimitOverrides sessionLimits = SessionLimits.overrides(limits, "limits");
        JsonNode temperature = s.get("temperature");
        Double temperatureValue = null;
        if (!temperature.isMissingNode() && !temperature.isNull()) {
            if (!temperature.isNumber()
                    || temperature.doubleValue() < 0
                    || temperature.doubleValue() > dev.baton.core.model.ModelRequest.MAX_TEMPERATURE)
                throw s.invalid("temperature", "must be a number from 0 to 2");
            temperatureValue = temperature.doubleValue();
        }
        return new AgentDefinition(
                id,
                s.text("name", id),
                s.text("description", ""),
                required(s, "systemPrompt", source),
                model,
                s.strings("tools"),
                s.strings("roles"),
                ConfigNodes.limits(limits, "limits", orgLimits),
                s.strings("fallbackModels"),
                temperatureValue,
                sessionLimits,
                AgentConstraints.from(s.get("constraints")),
                ModuleEntry.parseList(s.get("modules"), "agent " + id),
                ApprovalRules.from(s.get("approval"), id),
                AttachedResource.fromContext(s.get("context"), id));
    }

    private static String required(ConfigSection s, String field, String source) {
        String v = s.text(field, "");
        if (v.isBlank()) throw ConfigProblem.of(s.node(), "agent needs '" + field + "'");
        return v;
    }

    public Optional<AgentDefinition> find(String id) {
        return Optional.ofNullable(agents.get(id));
    }

    /**
     * The longest request timeout of any agent (ten minutes for one that sets none): no turn runs longer, which is
     * what bounds the lease of an idempotency claim.
     */
    public java.time.Duration longestRequestTimeout() {
        java.time.Duration longest = java.time.Duration.ZERO;
        for (AgentDefinition a : all()) {
            java.time.Duration t = a.limits().requestTimeout();
            if (t == null) t = java.time.Duration.ofMinutes(10);
            if (t.compareTo(longest) > 0) longest = t;
        }
        return longest.isZero() ? java.time.Duration.ofMinutes(10) : longest;
    }

    /** The agent if it exists and the principal may use it. */
    public Optional<AgentDefinition> usableBy(String id, Principal principal) {
        return find(id).filter(a -> mayUse(a, principal));
    }

    public List<AgentDefinition> usableBy(Principal principal) {
        return agents.values().stream().filter(a -> mayUse(a, principal)).toList();
    }

    public Collection<AgentDefinition> all() {
        return agents.values();
    }

    private static boolean mayUse(AgentDefinition a, Principal p) {
        return a.allowedRoles().isEmpty() || a.allowedRoles().stream().anyMatch(p.roles()::contains);
    }
}
