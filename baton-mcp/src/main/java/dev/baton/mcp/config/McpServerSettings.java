package dev.baton.mcp.config;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One configured MCP server.
 *
 * @param name letters, digits and dashes (no underscores: {@code __} separates it from a tool's name in what the
 *     model sees)
 * @param timeout for each call of its tools, and for connecting to it
 * @param permissions what a caller must hold to use its tools; by default {@code mcp:<name>}
 * @param tools per-tool overrides, by the tool's name on the server
 * @param state whose data the server holds: each user's own, or everybody's (then only named roles use it)
 * @param trusted whether the server's own hints ({@code readOnlyHint}, {@code destructiveHint}) are believed; an
 *     untrusted server's tools all wait for approval unless the operator says otherwise per tool
 * @param oauth for {@code auth: oauth}: each user connects their own account and their calls carry their own token;
 *     null when the server needs no user authorization
 */
public record McpServerSettings(
        String name,
        McpTransport transport,
        Duration timeout,
        Set<String> permissions,
        Map<String, ToolSettings> tools,
        IdentityForwarding identity,
        ServerState state,
        boolean trusted,
        OAuthSettings oauth) {

    public static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9-]{0,31}";

    public McpServerSettings {
        Objects.requireNonNull(name, "name");
        if (!name.matches(NAME_PATTERN))
            throw new IllegalArgumentException("MCP server name '" + name
                    + "' must be 1-32 letters, digits or dashes, starting with a letter or digit (no underscores)");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(timeout, "timeout");
        if (!timeout.isPositive()) throw new IllegalArgumentException("timeout must be positive");
        permissions = Set.copyOf(permissions == null ? defaultPermissions(name) : permissions);
        tools = Map.copyOf(tools == null ? Map.of() : tools);
        identity = identity == null ? IdentityForwarding.NONE : identity;
        if (identity.headers() && !(transport instanceof McpTransport.Http))
            throw new IllegalArgumentException("identity headers need an HTTP server; use identity.meta for " + name);
        Objects.requireNonNull(state, "state");
        if (oauth != null && !(transport instanceof McpTransport.Http))
            throw new IllegalArgumentException("auth: oauth is for url servers (a user's account on a remote server)");
        if (oauth != null && !(state instanceof ServerState.PerUser))
            throw new IllegalArgumentException("auth: oauth means every user calls with their own account: say"
                    + " state: perUser (a shared server would mix users' accounts)");
        if (state instanceof ServerState.PerUser
                && transport instanceof McpTransport.Http
                && oauth == null
                && !identity.meta()
                && identity.userHeader() == null)
            throw new IllegalArgumentException("state perUser for a url server means the server keeps each user's data"
                    + " apart by who calls: set identity (userHeader or meta) and make the server enforce it,"
                    + " or say state: shared with sharedWith: [roles]");
    }

    /** A server that needs no user authorization. */
    public McpServerSettings(
            String name,
            McpTransport transport,
            Duration timeout,
            Set<String> permissions,
            Map<String, ToolSettings> tools,
            IdentityForwarding identity,
            ServerState state,
            boolean trusted) {
        this(name, transport, timeout, permissions, tools, identity, state, trusted, null);
    }

    /** The same server reached another way (a user's own process). */
    public McpServerSettings withTransport(McpTransport other) {
        return new McpServerSettings(name, other, timeout, permissions, tools, identity, state, trusted, oauth);
    }

    /** Whether each user connects their own account on it ({@code auth: oauth}). */
    public boolean userAccounts() {
        return oauth != null;
    }

    /** Whether a process of its own runs for each user (a command server whose state is per user). */
    public boolean processPerUser() {
        return state instanceof ServerState.PerUser && transport instanceof McpTransport.Stdio;
    }

    /** The roles that share its data, or an empty set when each user's data is their own. */
    public Set<String> sharedWith() {
        return state instanceof ServerState.Shared shared ? shared.roles() : Set.of();
    }

    /** The operator's word on whether the named tool's calls are destructive; empty leaves it to trust and hints. */
    public java.util.Optional<Boolean> destructiveOverride(String toolName) {
        ToolSettings own = tools.get(toolName);
        return java.util.Optional.ofNullable(own == null ? null : own.destructive());
    }

    /** The permission a caller needs for a server's tools unless configured otherwise: {@code mcp:<name>}. */
    public static Set<String> defaultPermissions(String serverName) {
        return Set.of("mcp:" + serverName);
    }

    /** What a caller must hold to use the named tool. */
    public Set<String> permissionsFor(String toolName) {
        ToolSettings own = tools.get(toolName);
        return own != null && own.permissions() != null ? own.permissions() : permissions;
    }

    /** How long a call of the named tool may take. */
    public Duration timeoutFor(String toolName) {
        ToolSettings own = tools.get(toolName);
        return own != null && own.timeout() != null ? own.timeout() : timeout;
    }

    /** The longest any of its tools may take. */
    public Duration longestTimeout() {
        return tools.values().stream()
                .map(ToolSettings::timeout)
                .filter(Objects::nonNull)
                .reduce(timeout, (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }
}
