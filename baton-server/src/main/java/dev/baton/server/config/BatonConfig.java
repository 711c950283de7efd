package dev.baton.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.agent.TurnLimits;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The server's whole configuration, after baton.yaml and environment overrides were applied.
 *
 * @param jwtSecret null when none is configured: {@code baton serve} then generates one for the run
 * @param rolePermissions what each role may do; a principal's permissions are the union over its roles
 * @param agentDirs extra folders with agents/*.yaml besides the built-in agents on the classpath
 * @param raw the whole baton.yaml as a tree (empty when there is none): each feature reads its own section
 *     (e.g. {@code raw.path("rateLimits")}) so that adding a feature does not change this record
 * @param env the environment the configuration was loaded with, for features' own overrides
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
        Map<String, String> env) {

    public static final int DEFAULT_PORT = 8080;
    public static final String DEFAULT_DATABASE_URL = "jdbc:sqlite:data/baton.db";
    public static final int DEFAULT_MAX_BODY_BYTES = 256 * 1024;

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

    /** A section of baton.yaml, missing when absent. */
    public JsonNode section(String name) {
        return raw.path(name);
    }

    public BatonConfig withPort(int newPort) {
        return new BatonConfig(
                newPort, databaseUrl, jwtSecret, models, limits, rolePermissions, agentDirs, maxBodyBytes, raw, env);
    }

    public BatonConfig withJwtSecret(String secret) {
        return new BatonConfig(
                port, databaseUrl, secret, models, limits, rolePermissions, agentDirs, maxBodyBytes, raw, env);
    }

    public BatonConfig withLimits(TurnLimits newLimits) {
        return new BatonConfig(
                port, databaseUrl, jwtSecret, models, newLimits, rolePermissions, agentDirs, maxBodyBytes, raw, env);
    }
}
