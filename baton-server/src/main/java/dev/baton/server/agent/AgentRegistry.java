package dev.baton.server.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.auth.Principal;
import dev.baton.server.config.ConfigException;
import dev.baton.server.config.ConfigLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The agents this server offers: built-in ones from the classpath, then agents/*.yaml from configured folders
 * (a folder's agent replaces a built-in one of the same id). Limits cascade org → agent.
 */
public final class AgentRegistry {

    /** Built-in agent definitions shipped on the classpath. */
    public static final List<String> BUILT_IN = List.of("agents/tasks.yaml", "agents/study.yaml");

    private final Map<String, AgentDefinition> agents;

    private AgentRegistry(Map<String, AgentDefinition> agents) {
        this.agents = Map.copyOf(agents);
    }

    public static AgentRegistry load(List<Path> dirs, TurnLimits orgLimits, String defaultModel) {
        Map<String, AgentDefinition> found = new LinkedHashMap<>();
        for (String resource : BUILT_IN) {
            try (InputStream in = AgentRegistry.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) continue;
                AgentDefinition a = parse(ConfigLoader.yamlMapper().readTree(in), orgLimits, defaultModel, resource);
                found.put(a.id(), a);
            } catch (IOException e) {
                throw new ConfigException("cannot read built-in agent " + resource + ": " + e.getMessage());
            }
        }
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) throw new ConfigException("agents folder not found: " + dir);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p ->
                                p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                        .sorted()
                        .toList()) {
                    AgentDefinition a = parse(ConfigLoader.readYaml(f), orgLimits, defaultModel, f.toString());
                    found.put(a.id(), a);
                }
            } catch (IOException e) {
                throw new ConfigException("cannot list " + dir + ": " + e.getMessage());
            }
        }
        return new AgentRegistry(found);
    }

    static AgentDefinition parse(JsonNode node, TurnLimits orgLimits, String defaultModel, String source) {
        String id = required(node, "id", source);
        String model = node.path("model").asText("default");
        if (model.isBlank() || model.equals("default")) model = defaultModel;
        List<String> tools = new ArrayList<>();
        node.path("tools").forEach(t -> tools.add(t.asText()));
        List<String> roles = new ArrayList<>();
        node.path("roles").forEach(r -> roles.add(r.asText()));
        List<String> fallbacks = new ArrayList<>();
        node.path("fallbackModels").forEach(f -> fallbacks.add(f.asText()));
        return new AgentDefinition(
                id,
                node.path("name").asText(id),
                node.path("description").asText(""),
                required(node, "systemPrompt", source),
                model,
                tools,
                roles,
                ConfigLoader.limits(node.path("limits"), orgLimits),
                fallbacks,
                node);
    }

    private static String required(JsonNode node, String field, String source) {
        String v = node.path(field).asText("");
        if (v.isBlank()) throw new ConfigException(source + ": agent needs '" + field + "'");
        return v;
    }

    public Optional<AgentDefinition> find(String id) {
        return Optional.ofNullable(agents.get(id));
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
