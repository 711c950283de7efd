package dev.baton.mcp.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 */
public record McpSettings(
        List<McpServerSettings> servers, Duration restartDelay, Duration maxRestartDelay, Duration healthCheck) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final McpSettings NONE = new McpSettings(List.of(), null, null, null);

    private static final Set<String> SECTION_KEYS = Set.of("servers", "restartDelay", "maxRestartDelay", "healthCheck");
    private static final Set<String> SERVER_KEYS = Set.of(
            "command", "args", "env", "url", "headers", "transport", "timeout", "permissions", "tools", "identity");
    private static final Set<String> TOOL_KEYS = Set.of("permissions", "timeout");
    private static final Set<String> IDENTITY_KEYS = Set.of("meta", "userHeader", "tenantHeader");

    public McpSettings {
        servers = List.copyOf(servers);
        restartDelay = restartDelay == null ? Duration.ofMillis(500) : restartDelay;
        maxRestartDelay = maxRestartDelay == null ? Duration.ofSeconds(30) : maxRestartDelay;
        healthCheck = healthCheck == null ? Duration.ofSeconds(15) : healthCheck;
        if (!restartDelay.isPositive() || maxRestartDelay.compareTo(restartDelay) < 0 || !healthCheck.isPositive())
            throw new IllegalArgumentException(
                    "mcp: restartDelay and healthCheck must be positive, maxRestartDelay >= restartDelay");
        Set<String> names = new LinkedHashSet<>();
        for (McpServerSettings s : servers) {
            if (!names.add(s.name().toLowerCase(Locale.ROOT)))
                throw new IllegalArgumentException("mcp: server '" + s.name() + "' is configured twice");
        }
    }

    /**
     * Reads the section; missing means no servers.
     *
     * @param env for {@code ${NAME}} placeholders in commands, arguments, environment values, URLs and headers
     * @throws IllegalArgumentException naming the setting that is wrong
     */
    public static McpSettings parse(JsonNode section, Map<String, String> env) {
        if (section == null || section.isMissingNode() || section.isNull()) return NONE;
        requireObject(section, "mcp");
        checkKeys(section, SECTION_KEYS, "mcp");
        Placeholders placeholders = new Placeholders(env == null ? Map.of() : env);
        List<McpServerSettings> servers = new ArrayList<>();
        JsonNode serversNode = section.path("servers");
        if (!serversNode.isMissingNode() && !serversNode.isNull()) {
            requireObject(serversNode, "mcp.servers");
            serversNode.properties().forEach(e -> servers.add(server(e.getKey(), e.getValue(), placeholders)));
        }
        return new McpSettings(
                servers,
                duration(section.path("restartDelay"), null, "mcp.restartDelay"),
                duration(section.path("maxRestartDelay"), null, "mcp.maxRestartDelay"),
                duration(section.path("healthCheck"), null, "mcp.healthCheck"));
    }

    private static McpServerSettings server(String name, JsonNode node, Placeholders placeholders) {
        String where = "mcp.servers." + name;
        requireObject(node, where);
        checkKeys(node, SERVER_KEYS, where);
        boolean stdio = node.has("command");
        boolean http = node.has("url");
        if (stdio == http) throw new IllegalArgumentException(where + ": set exactly one of command and url");
        McpTransport transport = stdio ? stdio(node, where, placeholders) : http(node, where, placeholders);
        Map<String, ToolSettings> tools = new LinkedHashMap<>();
        JsonNode toolsNode = node.path("tools");
        if (!toolsNode.isMissingNode()) {
            requireObject(toolsNode, where + ".tools");
            toolsNode.properties().forEach(e -> {
                String toolWhere = where + ".tools." + e.getKey();
                requireObject(e.getValue(), toolWhere);
                checkKeys(e.getValue(), TOOL_KEYS, toolWhere);
                tools.put(
                        e.getKey(),
                        new ToolSettings(
                                permissions(e.getValue().path("permissions"), toolWhere),
                                duration(e.getValue().path("timeout"), null, toolWhere + ".timeout")));
            });
        }
        Duration timeout = duration(node.path("timeout"), DEFAULT_TIMEOUT, where + ".timeout");
        Set<String> permissions = permissions(node.path("permissions"), where);
        IdentityForwarding identity = identity(node.path("identity"), where);
        try {
            return new McpServerSettings(name, transport, timeout, permissions, tools, identity);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static McpTransport.Stdio stdio(JsonNode node, String where, Placeholders placeholders) {
        for (String httpOnly : List.of("headers", "transport")) {
            if (node.has(httpOnly))
                throw new IllegalArgumentException(where + "." + httpOnly + " is for url servers, not command ones");
        }
        String command = placeholders.expand(text(node.path("command"), where + ".command"), where + ".command");
        List<String> args = new ArrayList<>();
        JsonNode argsNode = node.path("args");
        if (!argsNode.isMissingNode()) {
            if (!argsNode.isArray()) throw new IllegalArgumentException(where + ".args must be a list of strings");
            for (int i = 0; i < argsNode.size(); i++) {
                String argWhere = where + ".args[" + i + "]";
                args.add(placeholders.expand(text(argsNode.get(i), argWhere), argWhere));
            }
        }
        return new McpTransport.Stdio(command, args, stringMap(node.path("env"), where + ".env", placeholders));
    }

    private static McpTransport.Http http(JsonNode node, String where, Placeholders placeholders) {
        if (node.has("args") || node.has("env"))
            throw new IllegalArgumentException(where + ": args and env are for command servers, not url ones");
        String url = placeholders.expand(text(node.path("url"), where + ".url"), where + ".url");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(where + ".url is not a URL: " + e.getMessage());
        }
        McpTransport.HttpMode mode = McpTransport.HttpMode.AUTO;
        if (node.has("transport")) {
            String value = text(node.path("transport"), where + ".transport");
            try {
                mode = McpTransport.HttpMode.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        where + ".transport must be auto, streamable or sse, got '" + value + "'");
            }
        }
        Map<String, String> headers = stringMap(node.path("headers"), where + ".headers", placeholders);
        try {
            return new McpTransport.Http(uri, headers, mode);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ".url: " + e.getMessage());
        }
    }

    private static IdentityForwarding identity(JsonNode node, String where) {
        if (node.isMissingNode() || node.isNull()) return IdentityForwarding.NONE;
        String identityWhere = where + ".identity";
        requireObject(node, identityWhere);
        checkKeys(node, IDENTITY_KEYS, identityWhere);
        JsonNode meta = node.path("meta");
        if (!meta.isMissingNode() && !meta.isBoolean())
            throw new IllegalArgumentException(identityWhere + ".meta must be true or false");
        return new IdentityForwarding(
                meta.asBoolean(false),
                node.has("userHeader") ? text(node.path("userHeader"), identityWhere + ".userHeader") : null,
                node.has("tenantHeader") ? text(node.path("tenantHeader"), identityWhere + ".tenantHeader") : null);
    }

    private static Set<String> permissions(JsonNode node, String where) {
        if (node.isMissingNode() || node.isNull()) return null;
        if (!node.isArray()) throw new IllegalArgumentException(where + ".permissions must be a list of strings");
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < node.size(); i++) out.add(text(node.get(i), where + ".permissions[" + i + "]"));
        return out;
    }

    private static Map<String, String> stringMap(JsonNode node, String where, Placeholders placeholders) {
        if (node.isMissingNode() || node.isNull()) return Map.of();
        requireObject(node, where);
        Map<String, String> out = new LinkedHashMap<>();
        node.properties().forEach(e -> {
            String entryWhere = where + "." + e.getKey();
            out.put(e.getKey(), placeholders.expand(text(e.getValue(), entryWhere), entryWhere));
        });
        return out;
    }

    private static Duration duration(JsonNode node, Duration fallback, String where) {
        try {
            return ConfigNodes.duration(node, fallback);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    private static String text(JsonNode node, String where) {
        if (node == null || !node.isValueNode() || node.isNull())
            throw new IllegalArgumentException(where + " must be a string");
        return node.asText();
    }

    private static void requireObject(JsonNode node, String where) {
        if (!node.isObject()) throw new IllegalArgumentException(where + " must be a map");
    }

    private static void checkKeys(JsonNode node, Set<String> allowed, String where) {
        node.fieldNames().forEachRemaining(key -> {
            if (!allowed.contains(key))
                throw new IllegalArgumentException(where + ": unknown key '" + key + "' (known: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
        });
    }

    /** The settings of the named server. */
    public McpServerSettings server(String name) {
        return servers.stream()
                .filter(s -> s.name().equals(Objects.requireNonNull(name)))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no MCP server named " + name));
    }
}
