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
    private static final Set<String> OAUTH_KEYS =
            Set.of("issuer", "clientId", "clientSecret", "clientMetadataUrl", "scopes", "resource");

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
        ServerState state = state(node, where, stdio);
        // a process per user may name its user's key (a data file of its own); nothing else may
        Placeholders expanding = stdio && state instanceof ServerState.PerUser
                ? placeholders.keeping(UserKey.PLACEHOLDER_NAME)
                : placeholders;
        McpTransport transport = stdio ? stdio(node, where, expanding) : http(node, where, placeholders);
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
        Duration timeout = duration(node.path("timeout"), DEFAULT_TIMEOUT, where + ".timeout");
        Set<String> permissions = permissions(node.path("permissions"), where);
        IdentityForwarding identity = identity(node.path("identity"), where);
        boolean trusted = flag(node.path("trusted"), false, where + ".trusted");
        OAuthSettings oauth = oauth(node, where, transport, placeholders);
        try {
            return new McpServerSettings(name, transport, timeout, permissions, tools, identity, state, trusted, oauth);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * The server's {@code state}, which must be said: Baton cannot see whether a server keeps one memory for everybody.
     */
    private static ServerState state(JsonNode node, String where, boolean stdio) {
        if (!node.has("state"))
            throw new IllegalArgumentException(where + ": say whose data the server keeps with state: perUser (each"
                    + " user's own: "
                    + (stdio ? "Baton runs one process per user" : "set identity and let the server" + " enforce it")
                    + ") or state: shared (one set of data for everybody, with sharedWith: [roles"
                    + " that may use it]); without it every user could read and change every other user's data");
        String value = text(node.path("state"), where + ".state");
        boolean processLimits = node.has("maxProcesses") || node.has("idleTimeout");
        switch (value) {
            case "perUser" -> {
                if (node.has("sharedWith"))
                    throw new IllegalArgumentException(where + ".sharedWith is for state: shared");
                if (processLimits && !stdio)
                    throw new IllegalArgumentException(
                            where + ": maxProcesses and idleTimeout are for command servers (one process per user)");
                JsonNode max = node.path("maxProcesses");
                if (!max.isMissingNode() && (!max.canConvertToInt() || !max.isIntegralNumber() || max.asInt() < 1))
                    throw new IllegalArgumentException(where + ".maxProcesses must be a whole number of at least 1");
                return new ServerState.PerUser(
                        max.isMissingNode() ? ServerState.PerUser.DEFAULT_MAX_PROCESSES : max.asInt(),
                        duration(
                                node.path("idleTimeout"),
                                ServerState.PerUser.DEFAULT_IDLE_TIMEOUT,
                                where + ".idleTimeout"));
            }
            case "shared" -> {
                if (processLimits)
                    throw new IllegalArgumentException(
                            where + ": maxProcesses and idleTimeout are for state: perUser (one process per user)");
                Set<String> roles = roles(node.path("sharedWith"), where + ".sharedWith");
                if (roles.isEmpty())
                    throw new IllegalArgumentException(where + ": state: shared needs sharedWith, the roles that may"
                            + " use it (every one of them reads and changes the same data), e.g. sharedWith: [admin]");
                return new ServerState.Shared(roles);
            }
            default ->
                throw new IllegalArgumentException(where + ".state must be perUser or shared, got '" + value + "'");
        }
    }

    private static Set<String> roles(JsonNode node, String where) {
        if (node.isMissingNode() || node.isNull()) return Set.of();
        if (!node.isArray()) throw new IllegalArgumentException(where + " must be a list of roles");
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < node.size(); i++) out.add(text(node.get(i), where + "[" + i + "]"));
        return out;
    }

    private static Boolean flag(JsonNode node, Boolean fallback, String where) {
        if (node.isMissingNode() || node.isNull()) return fallback;
        if (!node.isBoolean()) throw new IllegalArgumentException(where + " must be true or false");
        return node.asBoolean();
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
        McpTransport.Protocol protocol =
                mode == McpTransport.HttpMode.SSE ? McpTransport.Protocol.V2025 : McpTransport.Protocol.AUTO;
        if (node.has("protocol")) {
            String value = text(node.path("protocol"), where + ".protocol");
            protocol = switch (value) {
                case "auto" -> McpTransport.Protocol.AUTO;
                case "2025" -> McpTransport.Protocol.V2025;
                case "2026" -> McpTransport.Protocol.V2026;
                default ->
                    throw new IllegalArgumentException(
                            where + ".protocol must be auto, 2025 or 2026, got '" + value + "'");
            };
        }
        Map<String, String> headers = stringMap(node.path("headers"), where + ".headers", placeholders);
        try {
            return new McpTransport.Http(uri, headers, mode, protocol);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ".url: " + e.getMessage());
        }
    }

    /** {@code auth: oauth} and its {@code oauth:} map; null for a server without user authorization. */
    private static OAuthSettings oauth(JsonNode node, String where, McpTransport transport, Placeholders placeholders) {
        String auth = node.has("auth") ? text(node.path("auth"), where + ".auth") : "none";
        if (!auth.equals("oauth") && !auth.equals("none"))
            throw new IllegalArgumentException(where + ".auth must be oauth or none, got '" + auth + "'");
        JsonNode settings = node.path("oauth");
        if (auth.equals("none")) {
            if (!settings.isMissingNode())
                throw new IllegalArgumentException(where + ".oauth is for auth: oauth; add auth: oauth or remove it");
            return null;
        }
        if (!(transport instanceof McpTransport.Http http))
            throw new IllegalArgumentException(where + ": auth: oauth is for url servers, not command ones");
        String oauthWhere = where + ".oauth";
        if (settings.isMissingNode() || settings.isNull())
            settings = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        else {
            requireObject(settings, oauthWhere);
            checkKeys(settings, OAUTH_KEYS, oauthWhere);
        }
        List<String> scopes = new ArrayList<>();
        JsonNode scopesNode = settings.path("scopes");
        if (!scopesNode.isMissingNode()) {
            if (!scopesNode.isArray())
                throw new IllegalArgumentException(oauthWhere + ".scopes must be a list of strings");
            for (int i = 0; i < scopesNode.size(); i++)
                scopes.add(text(scopesNode.get(i), oauthWhere + ".scopes[" + i + "]"));
        }
        try {
            return new OAuthSettings(
                    optionalUrl(settings.path("issuer"), oauthWhere + ".issuer", placeholders),
                    optionalText(settings.path("clientId"), oauthWhere + ".clientId", placeholders),
                    optionalText(settings.path("clientSecret"), oauthWhere + ".clientSecret", placeholders),
                    optionalUrl(settings.path("clientMetadataUrl"), oauthWhere + ".clientMetadataUrl", placeholders),
                    scopes,
                    settings.has("resource")
                            ? optionalUrl(settings.path("resource"), oauthWhere + ".resource", placeholders)
                            : http.url());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(oauthWhere + ": " + e.getMessage(), e);
        }
    }

    private static String optionalText(JsonNode node, String where, Placeholders placeholders) {
        if (node.isMissingNode() || node.isNull()) return null;
        return placeholders.expand(text(node, where), where);
    }

    private static URI optionalUrl(JsonNode node, String where, Placeholders placeholders) {
        String text = optionalText(node, where, placeholders);
        return text == null ? null : url(text, where);
    }

    private static URI url(String text, String where) {
        try {
            URI uri = new URI(text);
            if (!uri.isAbsolute()) throw new IllegalArgumentException(where + " must be an absolute URL, got " + text);
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(where + " is not a URL: " + e.getMessage());
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
