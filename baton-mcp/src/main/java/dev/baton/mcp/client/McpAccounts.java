package dev.baton.mcp.client;

import dev.baton.core.auth.Principal;
import dev.baton.mcp.client.oauth.AccountFlowException;
import dev.baton.mcp.client.oauth.UserAccounts;
import java.util.List;
import java.util.Map;

/**
 * What the routes of users' own accounts on MCP servers ({@code auth: oauth}) do, for the verified caller only:
 * start and finish connecting an account, list one's own connections, and disconnect. Connecting opens the user's
 * session at once (so the server's tools are listed); disconnecting closes it.
 */
public final class McpAccounts {
    private final UserAccounts accounts;
    private final Map<String, AccountSessions> sessions;

    McpAccounts(UserAccounts accounts, Map<String, AccountSessions> sessions) {
        this.accounts = accounts;
        this.sessions = Map.copyOf(sessions);
    }

    /** @see UserAccounts#start */
    public UserAccounts.Started start(Principal caller, String server, String browserValue) {
        return accounts.start(caller, server, browserValue);
    }

    /** @see UserAccounts#finish */
    public UserAccounts.Connected finish(String query, String browserValue) {
        UserAccounts.Connected connected = accounts.finish(query, browserValue);
        AccountSessions own = sessions.get(connected.server());
        if (own != null) {
            // a session opened with the previous tokens (before a reconnection) must not linger
            own.forget(connected.tenantId(), connected.userId());
            own.warm(connected.tenantId(), connected.userId());
        }
        return connected;
    }

    /**
     * The caller's own connected accounts; their sessions are opened when not yet open, so the servers' tools are
     * offered after a restart as soon as a user who connected one opens the app.
     */
    public List<UserAccounts.Connection> connections(Principal caller) {
        List<UserAccounts.Connection> own = accounts.connections(caller.tenantId(), caller.userId());
        for (UserAccounts.Connection c : own) {
            AccountSessions s = sessions.get(c.server());
            if (s != null) Thread.ofVirtual().start(() -> s.warm(caller.tenantId(), caller.userId()));
        }
        return own;
    }

    /** Whether the callback's public URL is https (its cookie is then {@code Secure}). */
    public boolean callbackIsHttps() {
        return "https".equalsIgnoreCase(accounts.callback().getScheme());
    }

    /** The servers with {@code auth: oauth}, sorted by name. */
    public List<String> servers() {
        return accounts.servers();
    }

    /**
     * Disconnects the caller's account on {@code server}: revoked, forgotten, its session closed.
     *
     * @return whether it was connected
     * @throws AccountFlowException {@code UNKNOWN_SERVER}
     */
    public boolean disconnect(Principal caller, String server) {
        boolean had = accounts.revoke(caller.tenantId(), caller.userId(), server);
        AccountSessions s = sessions.get(server);
        if (s != null) s.forget(caller.tenantId(), caller.userId());
        return had;
    }
}
