package dev.baton.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A server configuration with MCP servers and the agents that use them, for the MCP integration tests. */
final class McpFixture {
    static final Set<String> CHAT = Set.of("sessions:read:self", "sessions:write:self");

    /** student: chats, tasks and both MCP test servers; plain: chats only; admin: all of it and the MCP admin API. */
    static final Map<String, Set<String>> ROLES = Map.of(
            "student",
            union(CHAT, Set.of("tasks:read:self", "tasks:write:self", "mcp:memory", "mcp:everything", "mcp:changing")),
            "viewer",
            union(CHAT, Set.of("tasks:read:self")),
            "plain",
            CHAT,
            "admin",
            union(
                    CHAT,
                    Set.of(
                            "tasks:read:self",
                            "tasks:write:self",
                            "mcp:memory",
                            "mcp:everything",
                            "mcp:changing",
                            "admin:mcp")));

    private McpFixture() {}

    /**
     * @param yaml baton.yaml's sections (mcp, …)
     * @param agentYamls file name without ".yaml" → agent definition, written to {@code dir/agents}
     */
    static BatonConfig config(Path dir, String yaml, Map<String, String> agentYamls, Map<String, String> env) {
        try {
            Path agents = Files.createDirectories(dir.resolve("agents"));
            for (var agent : agentYamls.entrySet()) {
                Files.writeString(agents.resolve(agent.getKey() + ".yaml"), agent.getValue());
            }
            JsonNode raw = ConfigLoader.yamlMapper().readTree(yaml);
            return new BatonConfig(
                    0,
                    TestServer.sqliteUrl(dir),
                    TestServer.SECRET,
                    new ModelSettings("simulator:default", null, null, Map.of()),
                    TurnLimits.DEFAULTS,
                    ROLES,
                    List.of(agents),
                    BatonConfig.DEFAULT_MAX_BODY_BYTES,
                    raw,
                    env);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A quoted YAML string. */
    static String q(Object value) {
        return "\"" + value.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
