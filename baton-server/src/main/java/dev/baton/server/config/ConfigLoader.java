package dev.baton.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.config.ConfigNodes;
import dev.baton.runtime.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads baton.yaml (when present) and applies environment overrides on top: BATON_PORT, BATON_DB_URL,
 * BATON_JWT_SECRET, OPENAI_API_KEY, OPENAI_BASE_URL, BATON_MODEL, BATON_AGENTS_DIR.
 */
public final class ConfigLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static final Map<String, Set<String>> DEFAULT_ROLES = defaultRoles();

    private ConfigLoader() {}

    /** Loads from {@code file} if it exists (null: ./baton.yaml or $BATON_CONFIG), then the environment. */
    public static BatonConfig load(Path file, Map<String, String> env) {
        Path path = file != null ? file : Path.of(env.getOrDefault("BATON_CONFIG", "baton.yaml"));
        JsonNode root = MissingNode.getInstance();
        if (Files.isRegularFile(path)) {
            try {
                root = YAML.readTree(path.toFile());
            } catch (IOException e) {
                throw new ConfigException("cannot read " + path + ": " + e.getMessage());
            }
        } else if (file != null) {
            throw new ConfigException("config file not found: " + file);
        }
        return fromTree(root == null ? MissingNode.getInstance() : root, env);
    }

    static BatonConfig fromTree(JsonNode yaml, Map<String, String> env) {
        JsonNode root = EnvAliases.apply(yaml, env);
        int port = intValue(
                env.get("BATON_PORT"), root.path("server").path("port"), BatonConfig.DEFAULT_PORT, "BATON_PORT");
        int maxBody = root.path("server").path("maxBodyBytes").asInt(BatonConfig.DEFAULT_MAX_BODY_BYTES);
        String dbUrl = firstNonBlank(
                env.get("BATON_DB_URL"), text(root.path("database").path("url")), BatonConfig.DEFAULT_DATABASE_URL);
        String secret = firstNonBlank(
                env.get("BATON_JWT_SECRET"), text(root.path("auth").path("jwtSecret")), null);

        JsonNode models = root.path("models");
        String apiKey = firstNonBlank(
                env.get("OPENAI_API_KEY"), text(models.path("openai").path("apiKey")), null);
        String baseUrl = firstNonBlank(
                env.get("OPENAI_BASE_URL"), text(models.path("openai").path("baseUrl")), null);
        Map<String, ModelSettings.CompatibleEndpoint> compatible = new LinkedHashMap<>();
        models.path("compatible")
                .properties()
                .forEach(e -> compatible.put(
                        e.getKey(),
                        new ModelSettings.CompatibleEndpoint(
                                text(e.getValue().path("baseUrl")),
                                text(e.getValue().path("apiKey")),
                                text(e.getValue().path("model")))));
        boolean realProvider = apiKey != null || baseUrl != null;
        String defaultModel = firstNonBlank(
                env.get("BATON_MODEL"),
                text(models.path("default")),
                realProvider ? "openai:gpt-4o-mini" : "simulator:default");

        List<Path> agentDirs = new ArrayList<>();
        root.path("agents").path("dirs").forEach(n -> agentDirs.add(Path.of(n.asText())));
        String envAgents = env.get("BATON_AGENTS_DIR");
        if (envAgents != null && !envAgents.isBlank()) agentDirs.add(Path.of(envAgents));
        if (agentDirs.isEmpty() && Files.isDirectory(Path.of("agents"))) agentDirs.add(Path.of("agents"));

        return new BatonConfig(
                port,
                dbUrl,
                secret,
                new ModelSettings(defaultModel, apiKey, baseUrl, compatible),
                limits(root.path("limits")),
                roles(root.path("roles")),
                agentDirs,
                maxBody,
                root,
                env);
    }

    /** Reads org-level limits; anything unset keeps the DESIGN §8 default. */
    public static TurnLimits limits(JsonNode node) {
        return limits(node, TurnLimits.DEFAULTS);
    }

    /** Overlays the limits set in {@code node} on {@code d}: the cascade's "most specific wins". */
    public static TurnLimits limits(JsonNode node, TurnLimits d) {
        try {
            return ConfigNodes.limits(node, d);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("limits: " + e.getMessage());
        }
    }

    private static Map<String, Set<String>> roles(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) return DEFAULT_ROLES;
        Map<String, Set<String>> roles = new LinkedHashMap<>();
        node.properties().forEach(e -> {
            Set<String> perms = new LinkedHashSet<>();
            e.getValue().forEach(p -> perms.add(p.asText()));
            roles.put(e.getKey(), perms);
        });
        return roles;
    }

    private static Map<String, Set<String>> defaultRoles() {
        Set<String> self = Set.of(
                "tasks:read:self",
                "tasks:write:self",
                "notes:read:self",
                "notes:write:self",
                "learning:read:self",
                "learning:write:self",
                "sessions:read:self",
                "sessions:write:self");
        Set<String> teacher = new LinkedHashSet<>(self);
        teacher.add("learning:grade");
        Set<String> admin = new LinkedHashSet<>(teacher);
        admin.addAll(Set.of("admin:audit", "admin:usage", "admin:learning", "admin:mcp"));
        return Map.of("user", self, "student", self, "teacher", Set.copyOf(teacher), "admin", Set.copyOf(admin));
    }

    /** ISO-8601 ("PT30S") or a number with a unit ("30s", "500ms", "5m", "24h"); see {@link ConfigNodes#duration}. */
    public static Duration duration(JsonNode node, Duration fallback) {
        try {
            return ConfigNodes.duration(node, fallback);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static int intValue(String envValue, JsonNode node, int fallback, String name) {
        if (envValue != null && !envValue.isBlank()) {
            try {
                return Integer.parseInt(envValue.trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(name + " must be a number, got '" + envValue + "'");
            }
        }
        return node.asInt(fallback);
    }

    private static String text(JsonNode node) {
        return node.isMissingNode() || node.isNull() ? null : node.asText();
    }

    private static String firstNonBlank(String a, String b, String c) {
        if (a != null && !a.isBlank()) return a;
        if (b != null && !b.isBlank()) return b;
        return c;
    }

    /** Reads a YAML file into a tree (agents use it too). */
    public static JsonNode readYaml(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ObjectMapper yamlMapper() {
        return YAML;
    }
}
