package dev.baton.mcp.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * baton.yaml's {@code mcp} section: the external MCP servers and how to keep them connected.
 *
 * <pre>{@code
 * mcp:
 *   servers:
 *     memory: { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"], env: {}, timeout: 10s }
 *     todo:   { url: "http://127.0.0.1:8001/mcp", headers: { X-Api-Key: "${TODO_KEY}" }, timeout: 10s }
 * }</pre>
 *
 * @param restartDelay the first wait before restarting a server that exited or reconnecting one that went away
 * @param maxRestartDelay the wait doubles after each failed attempt up to this
 * @param healthCheck how often a connected server is pinged, so one that went away while idle is noticed
 * @param oauthCallback Baton's public URL of {@code /oauth/mcp/callback}, where the identity providers of servers
 *     with {@code auth: oauth} send users back (registered with them as the redirect URI); null when no server has
 *     {@code auth: oauth}
 * @param resources the bounds and caching of resources agents attach to their context
 */
public record McpSettings(
        List<McpServerSettings> servers,
        Duration restartDelay,
        Duration maxRestartDelay,
        Duration healthCheck,
        URI oauthCallback,
        ResourceSettings resources) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final McpSettings NONE = new McpSettings(List.of(), null, null, null, null);

    public McpSettings {
        servers = List.copyOf(servers);
        restartDelay = restartDelay == null ? Duration.ofMillis(500) : restartDelay;
        maxRestartDelay = maxRestartDelay == null ? Duration.ofSeconds(30) : maxRestartDelay;
        healthCheck = healthCheck == null ? Duration.ofSeconds(15) : healthCheck;
        resources = resources == null ? ResourceSettings.DEFAULTS : resources;
        if (!restartDelay.isPositive() || maxRestartDelay.compareTo(restartDelay) < 0 || !healthCheck.isPositive())
            throw new IllegalArgumentException(
                    "mcp: restartDelay and healthCheck must be positive, maxRestartDelay >= restartDelay");
        Set<String> names = new LinkedHashSet<>();
        for (McpServerSettings s : servers) {
            if (!names.add(s.name().toLowerCase(Locale.ROOT)))
                throw new IllegalArgumentException("mcp: server '" + s.name() + "' is configured twice");
            if (s.userAccounts() && oauthCallback == null)
                throw new IllegalArgumentException("mcp.servers." + s.name() + " has auth: oauth, so Baton needs"
                        + " mcp.oauthCallback: its public URL of /oauth/mcp/callback, where the identity provider"
                        + " sends the user back (e.g. https://baton.example.com/oauth/mcp/callback)");
        }
        if (oauthCallback != null) OAuthSettings.requireHttp(oauthCallback, "mcp.oauthCallback");
    }

    public McpSettings(
            List<McpServerSettings> servers, Duration restartDelay, Duration maxRestartDelay, Duration healthCheck) {
        this(servers, restartDelay, maxRestartDelay, healthCheck, null, null);
    }

    public McpSettings(
            List<McpServerSettings> servers,
            Duration restartDelay,
            Duration maxRestartDelay,
            Duration healthCheck,
            URI oauthCallback) {
        this(servers, restartDelay, maxRestartDelay, healthCheck, oauthCallback, null);
    }

    /**
     * Reads the section; missing means no servers.
     *
     * @param env for {@code ${NAME}} placeholders in commands, arguments, environment values, URLs and headers
     * @throws IllegalArgumentException naming the setting that is wrong
     */
    public static McpSettings parse(JsonNode section, Map<String, String> env) {
        return McpSettingsReader.parse(section, env);
    }

    /** The settings of the named server. */
    public McpServerSettings server(String name) {
        return servers.stream()
                .filter(s -> s.name().equals(Objects.requireNonNull(name)))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no MCP server named " + name));
    }
}
