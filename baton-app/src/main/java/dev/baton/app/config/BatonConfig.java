package dev.baton.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.config.ConfigProblem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The server's whole configuration, after baton.yaml and environment overrides were applied.
 *
 * @param jwtSecret null when none is configured: {@code baton serve} then uses the development secret kept in the
 *     data directory
 * @param rolePermissions what each role may do; a principal's permissions are the union over its roles
 * @param agentDirs extra folders with agents/*.yaml besides the built-in agents on the classpath
 * @param raw the whole baton.yaml as a tree (empty when there is none): each feature reads its own section
 *     (e.g. {@code raw.path("rateLimits")}) so that adding a feature does not change this record
 * @param env the environment the configuration was loaded with, for features' own overrides
 * @param host the address {@code baton serve} binds: loopback unless told otherwise
 * @param dataDir where the server keeps its files (the SQLite database by default, the development secret)
 */
public record BatonConfig(
        int port,
        String databaseUrl,
        String jwtSecret,
        ModelSettings models,
        TurnLimits limits,
        Map<String, Set<String>> rolePermissions,
        List<Path> agentDirs,
        int maxBodyBytes,
        JsonNode raw,
        Map<String, String> env,
        String host,
        Path dataDir) {

    public static final int DEFAULT_PORT = 8080;
    /** Loopback: a development server is not reachable from the network until asked (--host 0.0.0.0). */
    public static final String DEFAULT_HOST = "127.0.0.1";

    public static final String DEFAULT_DATABASE_URL = "jdbc:sqlite:data/baton.db";
    public static final int DEFAULT_MAX_BODY_BYTES = 256 * 1024;
    /** The top-level key naming the default agent. */
    static final String DEFAULT_AGENT = "defaultAgent";

    public BatonConfig {
        if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be 0..65535");
        Objects.requireNonNull(databaseUrl, "databaseUrl");
        Objects.requireNonNull(models, "models");
        Objects.requireNonNull(limits, "limits");
        rolePermissions = Map.copyOf(rolePermissions);
        agentDirs = List.copyOf(agentDirs);
        if (maxBodyBytes < 1024) throw new IllegalArgumentException("maxBodyBytes must be >= 1024");
        raw = raw == null ? MissingNode.getInstance() : raw;
        env = Map.copyOf(env == null ? Map.of() : env);
        host = host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
        dataDir = dataDir == null ? Path.of("data") : dataDir;
    }

    /** Without host and data directory: loopback and ./data. */
    public BatonConfig(
            int port,
            String databaseUrl,
            String jwtSecret,
            ModelSettings models,
            TurnLimits limits,
            Map<String, Set<String>> rolePermissions,
            List<Path> agentDirs,
            int maxBodyBytes,
            JsonNode raw,
            Map<String, String> env) {
        this(
                port,
                databaseUrl,
                jwtSecret,
                models,
                limits,
                rolePermissions,
                agentDirs,
                maxBodyBytes,
                raw,
                env,
                null,
                null);
    }

    /** A configuration with defaults everywhere but the given essentials (tests, embedding). */
    public static BatonConfig of(
            int port,
            String databaseUrl,
            String jwtSecret,
            ModelSettings models,
            TurnLimits limits,
            Map<String, Set<String>> rolePermissions) {
        return new BatonConfig(
                port,
                databaseUrl,
                jwtSecret,
                models,
                limits,
                rolePermissions,
                List.of(),
                DEFAULT_MAX_BODY_BYTES,
                null,
                null);
    }

    /**
     * A section of baton.yaml, missing when absent.
     *
     * @throws IllegalStateException for a name that is not one of {@link ConfigLoader#SECTIONS}: a reader of a new
     *     section declares its name, so that the file may use it
     */
    public JsonNode section(String name) {
        if (!ConfigLoader.SECTIONS.contains(name))
            throw new IllegalStateException("'" + name + "' is not a declared section of baton.yaml");
        return raw.path(name);
    }

    /**
     * {@code BATON_DEFAULT_AGENT}, else baton.yaml's {@code defaultAgent}; null for the first agent the caller may use.
     */
    public String defaultAgent() {
        String fromEnv = env.get("BATON_DEFAULT_AGENT");
        if (fromEnv != null && !fromEnv.isBlank()) return fromEnv.strip();
        JsonNode node = section(DEFAULT_AGENT);
        if (node.isMissingNode() || node.isNull()) return null;
        if (!node.isTextual()) throw ConfigProblem.at(raw, DEFAULT_AGENT, "defaultAgent must be an agent id");
        return node.asText();
    }

    public BatonConfig withPort(int newPort) {
        return new BatonConfig(
                newPort,
                databaseUrl,
                jwtSecret,
                models,
                limits,
                rolePermissions,
                agentDirs,
                maxBodyBytes,
                raw,
                env,
                host,
                dataDir);
    }

    public BatonConfig withHost(String newHost) {
        return new BatonConfig(
                port,
                databaseUrl,
                jwtSecret,
                models,
                limits,
                rolePermissions,
                agentDirs,
                maxBodyBytes,
                raw,
                env,
                newHost,
                dataDir);
    }

    public BatonConfig withJwtSecret(String secret) {
        return new BatonConfig(
                port,
                databaseUrl,
                secret,
                models,
                limits,
                rolePermissions,
                agentDirs,
                maxBodyBytes,
                raw,
                env,
                host,
                dataDir);
    }

    public BatonConfig withLimits(TurnLimits newLimits) {
        return new BatonConfig(
                port,
                databaseUrl,
                jwtSecret,
                models,
                newLimits,
                rolePermissions,
                agentDirs,
                maxBodyBytes,
                raw,
                env,
                host,
                dataDir);
    }

    @Override
    public String toString() {
        // the secret never reaches a log
        return "BatonConfig[port=" + port + ", host=" + host + ", databaseUrl=" + databaseUrl + ", jwtSecret="
                + (jwtSecret == null ? "none" : "***") + ", models=" + models + ", dataDir=" + dataDir + "]";
    }
}
