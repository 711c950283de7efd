package dev.baton.mcp.config;

import static dev.baton.mcp.config.SectionNodes.checkKeys;
import static dev.baton.mcp.config.SectionNodes.duration;
import static dev.baton.mcp.config.SectionNodes.flag;
import static dev.baton.mcp.config.SectionNodes.requireObject;
import static dev.baton.mcp.config.SectionNodes.text;
import static dev.baton.mcp.config.SectionNodes.url;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads baton.yaml's {@code mcp} section into {@link McpSettings}: the section's keys and each server's; how a
 * server is reached, whose data it keeps and its OAuth are read by {@link TransportReader}, {@link ServerStateReader}
 * and {@link OAuthReader}.
 */
final class McpSettingsReader {
    private static final Set<String> SECTION_KEYS =
            Set.of("servers", "restartDelay", "maxRestartDelay", "healthCheck", "oauthCallback", "resources");
    private static final Set<String> SERVER_KEYS = Set.of(
            "command",
            "args",
            "env",
            "url",
            "headers",
            "transport",
            "protocol",
            "timeout",
            "permissions",
            "tools",
            "identity",
            "state",
            "sharedWith",
            "maxProcesses",
            "idleTimeout",
            "trusted",
            "auth",
            "oauth");
    private static final Set<String> TOOL_KEYS = Set.of("permissions", "timeout", "destructive");
    private static final Set<String> IDENTITY_KEYS = Set.of("meta", "userHeader", "tenantHeader");

    private McpSettingsReader() {}

    /** {@link McpSettings#parse}. */
    static McpSettings parse(JsonNode section, Map<String, String> env) {
        if (section == null || section.isMissingNode() || section.isNull()) return McpSettings.NONE;
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
                duration(section.path("healthCheck"), null, "mcp.healthCheck"),
                section.has("oauthCallback")
                        ? url(
                                placeholders.expand(
                                        text(section.path("oauthCallback"), "mcp.oauthCallback"), "mcp.oauthCallback"),
                                "mcp.oauthCallback")
                        : null,
                ResourceSettings.parse(section.path("resources")));
    }

    private static McpServerSettings server(String name, JsonNode node, Placeholders placeholders) {
        String where = "mcp.servers." + name;
        requireObject(node, where);
        checkKeys(node, SERVER_KEYS, where);
        boolean stdio = node.has("command");
        boolean http = node.has("url");
        if (stdio == http) throw new IllegalArgumentException(where + ": set exactly one of command and url");
        ServerState state = ServerStateReader.state(node, where, stdio);
        // a process per user may name its user's key (a data file of its own); nothing else may
        Placeholders expanding = stdio && state instanceof ServerState.PerUser
                ? placeholders.keeping(UserKey.PLACEHOLDER_NAME)
                : placeholders;
        McpTransport transport =
                stdio ? TransportReader.stdio(node, where, expanding) : TransportReader.http(node, where, placeholders);
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
                                duration(e.getValue().path("timeout"), null, toolWhere + ".timeout"),
                                flag(e.getValue().path("destructive"), null, toolWhere + ".destructive")));
            });
        }
        Duration timeout = duration(node.path("timeout"), McpSettings.DEFAULT_TIMEOUT, where + ".timeout");
        Set<String> permissions = permissions(node.path("permissions"), where);
        IdentityForwarding identity = identity(node.path("identity"), where);
        boolean trusted = flag(node.path("trusted"), false, where + ".trusted");
        OAuthSettings oauth = OAuthReader.oauth(node, where, transport, placeholders);
        try {
            return new McpServerSettings(name, transport, timeout, permissions, tools, identity, state, trusted, oauth);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
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
}
