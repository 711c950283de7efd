package dev.baton.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.core.hook.ModuleRegistry;
import dev.baton.domain.Domains;
import dev.baton.providers.pricing.PriceSettings;
import dev.baton.providers.resilience.ResilienceConfig;
import dev.baton.redis.SharedTurnSettings;
import dev.baton.runtime.BatonBuilder;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.runtime.session.SessionLimits;
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
 * Reads baton.yaml (when present) and applies environment overrides on top: BATON_HOST, BATON_PORT, BATON_DB_URL,
 * BATON_DATA_DIR, BATON_JWT_SECRET, OPENAI_API_KEY, OPENAI_BASE_URL, BATON_MODEL, BATON_MODEL_TIMEOUT, BATON_AGENTS_DIR.
 * Every top-level key must be a section some reader owns: a typo is an error with its line, not a section silently
 * ignored.
 */
public final class ConfigLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static final Map<String, Set<String>> DEFAULT_ROLES = defaultRoles();

    /** The sections this class reads itself. */
    private static final List<String> OWN_SECTIONS =
            List.of("server", "database", "auth", "models", "roles", "agents", BatonConfig.DEFAULT_AGENT);

    /** The keys of {@code server:}. */
    private static final List<String> SERVER_KEYS = List.of(
            "host",
            "port",
            "maxBodyBytes",
            "dataDir",
            "acceptQueue",
            "sseBufferBytes",
            "mcpAllowedOrigins",
            "mcpTrustClientConfirmation");

    /**
     * The sections a front door reads (baton-server: token verification, metrics, tracing, the designs' APIs, the web
     * page). The assembly does not read them, but they belong to the same file, so a typo there is caught here too.
     */
    public static final List<String> DOOR_SECTIONS = List.of("jwt", "metrics", "tracing", "compat", "web");

    /**
     * Every top-level key of baton.yaml: the sections read here, each one another reader owns (the name is declared
     * next to that reader), and the sections of the domains on the class path. {@link BatonConfig#section} reads only
     * these.
     */
    public static final Set<String> SECTIONS = ConfigSection.union(
            OWN_SECTIONS,
            BatonBuilder.SECTIONS,
            List.of(
                    RateLimitSettings.SECTION,
                    BudgetSettings.SECTION,
                    PriceSettings.SECTION,
                    ResilienceConfig.SECTION,
                    SharedTurnSettings.SECTION,
                    ModuleRegistry.SECTION,
                    // MCP servers, read by the assembly's wiring
                    "mcp",
                    // remote A2A agents as tools (the assembly's wiring) and the A2A door (baton-server)
                    "a2a"),
            DOOR_SECTIONS,
            Domains.onClassPath().configSections());

    private ConfigLoader() {}

    /** Loads from {@code file} if it exists (null: ./baton.yaml or $BATON_CONFIG), then the environment. */
    public static BatonConfig load(Path file, Map<String, String> env) {
        return from(read(file, env), env);
    }

    /**
     * The configuration file as a tree with lines: {@code file}, else {@code $BATON_CONFIG}, else ./baton.yaml; an
     * empty one when that default file does not exist.
     *
     * @throws ConfigException when a file named explicitly does not exist, or the file is not YAML
     */
    public static ConfigFile read(Path file, Map<String, String> env) {
        String named = env.get("BATON_CONFIG");
        Path path = file != null ? file : Path.of(named != null && !named.isBlank() ? named : "baton.yaml");
        if (Files.isRegularFile(path)) return ConfigFile.read(path);
        if (file != null || named != null && !named.isBlank())
            throw new ConfigException("config file not found: " + path);
        return ConfigFile.none(path.toString());
    }

    /**
     * The configuration a file and the environment give.
     *
     * @throws ConfigException "{@code baton.yaml:12: ...}" for an unknown key, a wrong type or a bad value
     */
    public static BatonConfig from(ConfigFile file, Map<String, String> env) {
        try {
            return fromTree(file.root(), env);
        } catch (IllegalArgumentException e) {
            throw explain(file, e);
        }
    }

    /** {@code failure} as a configuration error located in {@code file} when it is about it; else as it is. */
    public static RuntimeException explain(ConfigFile file, RuntimeException failure) {
        return file.explain(failure).map(RuntimeException.class::cast).orElseGet(() -> {
            if (failure instanceof ConfigProblem p) return new ConfigException(p.getMessage(), p);
            return failure;
        });
    }

    static BatonConfig fromTree(JsonNode yaml, Map<String, String> env) {
        // the todo design's environment names, as aliases of Baton's settings where baton.yaml leaves them out
        JsonNode root = EnvAliases.apply(yaml, env);
        ConfigSection top = ConfigSection.of(root, "", SECTIONS);
        ConfigSection server = top.section("server", SERVER_KEYS);
        String host = firstNonBlank(env.get("BATON_HOST"), server.text("host"), BatonConfig.DEFAULT_HOST);
        int port = port(env.get("BATON_PORT"), server);
        int maxBody = server.integer("maxBodyBytes", BatonConfig.DEFAULT_MAX_BODY_BYTES, 1024);
        Path dataDir = Path.of(firstNonBlank(env.get("BATON_DATA_DIR"), server.text("dataDir"), "data"));
        String dbUrl = firstNonBlank(
                env.get("BATON_DB_URL"),
                top.section("database", "url", "connectionTimeout", "breakerOpenFor", "groupCommit")
                        .text("url"),
                BatonConfig.DEFAULT_DATABASE_URL);
        String secret = firstNonBlank(
                env.get("BATON_JWT_SECRET"), top.section("auth", "jwtSecret").text("jwtSecret"), null);

        JsonNode models = top.get("models");
        ConfigSection.checkKeys(models, "models", ConfigSection.union(ModelSettings.KEYS, ProviderSettings.KEYS));
        ModelSettings modelSettings = ModelSettings.parse(models, env);
        // the native providers are read now too, so that a mistake in them fails here with its line
        ProviderSettings.from(models, env);

        ConfigSection agents = top.section("agents", "dirs");
        List<Path> agentDirs = new ArrayList<>();
        agents.strings("dirs").forEach(d -> agentDirs.add(Path.of(d)));
        String envAgents = env.get("BATON_AGENTS_DIR");
        if (envAgents != null && !envAgents.isBlank()) agentDirs.add(Path.of(envAgents));
        if (agentDirs.isEmpty() && Files.isDirectory(Path.of("agents"))) agentDirs.add(Path.of("agents"));

        JsonNode limits = top.get("limits");
        SessionLimits.checkLimitKeys(limits, "limits");
        return new BatonConfig(
                port,
                dbUrl,
                secret,
                modelSettings,
                limits(limits),
                roles(top),
                agentDirs,
                maxBody,
                root,
                env,
                host,
                dataDir);
    }

    /** Reads org-level limits; anything unset keeps the DESIGN §8 default. */
    public static TurnLimits limits(JsonNode node) {
        return limits(node, TurnLimits.DEFAULTS);
    }

    /** Overlays the limits set in {@code node} on {@code d}: the cascade's "most specific wins". */
    public static TurnLimits limits(JsonNode node, TurnLimits d) {
        try {
            return ConfigNodes.limits(node, d);
        } catch (ConfigProblem e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("limits: " + e.getMessage(), e);
        }
    }

    private static Map<String, Set<String>> roles(ConfigSection top) {
        JsonNode node = top.get("roles");
        if (node.isMissingNode() || node.isNull()) return DEFAULT_ROLES;
        if (!node.isObject()) throw top.invalid("roles", "must map each role to a list of permissions");
        Map<String, Set<String>> roles = new LinkedHashMap<>();
        ConfigSection all = ConfigSection.part(node, "roles", iterable(node.fieldNames()));
        for (String role : all.keys()) roles.put(role, new LinkedHashSet<>(all.strings(role)));
        return roles;
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> out = new ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

    /**
     * The roles when baton.yaml names none: every role manages its own sessions and holds what each domain on the class
     * path grants (its user permissions, and its grants to that role); admins also read the audit and usage and
     * manage MCP servers, experiments and flags.
     */
    private static Map<String, Set<String>> defaultRoles() {
        List<String> roles = List.of("user", "student", "teacher", "admin");
        Map<String, Set<String>> grants = Domains.onClassPath().grants(roles);
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (String role : roles) {
            Set<String> permissions = new LinkedHashSet<>(List.of("sessions:read:self", "sessions:write:self"));
            permissions.addAll(grants.get(role));
            if (role.equals("admin"))
                permissions.addAll(
                        List.of("admin:audit", "admin:usage", "admin:mcp", "admin:experiments", "admin:flags"));
            out.put(role, Set.copyOf(permissions));
        }
        return Map.copyOf(out);
    }

    /** ISO-8601 ("PT30S") or a number with a unit ("30s", "500ms", "5m", "24h"); see {@link ConfigNodes#duration}. */
    public static Duration duration(JsonNode node, Duration fallback) {
        try {
            return ConfigNodes.duration(node, fallback);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    private static int port(String envValue, ConfigSection server) {
        if (envValue != null && !envValue.isBlank()) {
            try {
                int port = Integer.parseInt(envValue.trim());
                if (port >= 0 && port <= 65535) return port;
            } catch (NumberFormatException e) {
                // the message below
            }
            throw new ConfigException("BATON_PORT must be a port number (0-65535), got '" + envValue + "'");
        }
        int port = server.integer("port", BatonConfig.DEFAULT_PORT, 0);
        if (port > 65535) throw server.invalid("port", "must be a port number (0-65535), got " + port);
        return port;
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
