package dev.baton.mcp.client.oauth;

import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.account.AccountTokenStore;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpSettings;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Users' own accounts on the MCP servers with {@code auth: oauth}, Baton being an OAuth client once per user:
 *
 * <ol>
 *   <li>{@link #start}: an authorization request with PKCE (S256), the RFC 8707 resource and a {@code state} that
 *       carries the whole pending authorization sealed ({@link PendingAuthorization}), bound to the browser's random
 *       value;
 *   <li>{@link #finish}: the callback's state is opened and checked (not changed, not expired, same browser), its
 *       {@code iss} compared with the authorization server's (RFC 9207), and the code exchanged for tokens, which are
 *       sealed ({@link TokenCipher}) and stored for that user only;
 *   <li>{@link #accessToken}: the user's current access token, refreshed shortly before it expires; after the server
 *       rejected one, {@link #refreshAfterRejection} refreshes it once more;
 *   <li>{@link #revoke}: the tokens revoked at the authorization server (when it offers revocation) and forgotten.
 * </ol>
 *
 * A token is only ever read by its own user's key: nothing here takes a user id from anywhere but the verified caller
 * or the sealed state Baton itself made for that caller.
 *
 * <p>The steps are {@code AuthorizationFlow}'s (start and finish), {@code AccessTokens}' (refresh and revoke) and
 * {@code SealedAccountTokens}' (the sealed rows); this class finds the server each request names.
 */
public final class UserAccounts {
    private static final Logger log = LoggerFactory.getLogger(UserAccounts.class);
    /** How long a started authorization may take to come back. */
    public static final Duration PENDING_FOR = Duration.ofMinutes(10);

    private final Map<String, McpServerSettings> servers;
    private final URI callback;
    private final SealedAccountTokens tokens;
    private final AuthorizationFlow flow;
    private final AccessTokens accessTokens;

    /** A started authorization: where to send the user's browser, and the value that browser must keep. */
    public record Started(URI authorizationUrl, String browserValue) {}

    /** A finished one: whose account on which server is now connected. */
    public record Connected(String tenantId, String userId, String server) {}

    /** One connected account, as its user sees it: never the tokens. */
    public record Connection(String server, Instant connectedAt, Instant updatedAt, Instant expiresAt, String scope) {}

    public UserAccounts(McpSettings settings, AccountTokenStore store, TokenCipher cipher, Clock clock) {
        this.servers = settings.servers().stream()
                .filter(McpServerSettings::userAccounts)
                .collect(java.util.stream.Collectors.toUnmodifiableMap(McpServerSettings::name, Function.identity()));
        this.callback = settings.oauthCallback();
        this.tokens = new SealedAccountTokens(
                Objects.requireNonNull(store, "store"), Objects.requireNonNull(cipher, "cipher"));
        Objects.requireNonNull(clock, "clock");
        AuthorizationServers authorizationServers = new AuthorizationServers();
        OAuthClients clients = new OAuthClients(callback);
        TokenEndpoint endpoint = new TokenEndpoint(authorizationServers, clients, clock);
        this.flow = new AuthorizationFlow(
                servers, callback, tokens, cipher, clock, authorizationServers, clients, endpoint);
        this.accessTokens = new AccessTokens(tokens, authorizationServers, clients, endpoint, clock);
    }

    /** Baton's path that starts connecting the named server. */
    public static String connectPath(String server) {
        return "/v1/mcp/servers/" + server + "/connect";
    }

    /** What a tool call needs to tell the user when they have not connected the named server. */
    public static ToolError.AccountConnect connectLink(String server) {
        return new ToolError.AccountConnect(server, connectPath(server));
    }

    /** Baton's public URL of the callback, as the authorization servers know it. */
    public URI callback() {
        return callback;
    }

    /** Whether a server of this name has {@code auth: oauth}. */
    public boolean offers(String server) {
        return servers.containsKey(server);
    }

    /** The names of the servers with {@code auth: oauth}, sorted. */
    public List<String> servers() {
        return servers.keySet().stream().sorted().toList();
    }

    /**
     * Starts connecting the caller's account on {@code server}.
     *
     * @param browserValue the random value the caller's browser keeps from an earlier start, or null to make one
     * @throws AccountFlowException {@code UNKNOWN_SERVER}, or {@code PROVIDER_FAILED} when its authorization server
     *     cannot be found
     */
    public Started start(Principal caller, String server, String browserValue) {
        return flow.start(caller, server(server), browserValue);
    }

    /**
     * Finishes an authorization from the callback's query string.
     *
     * @param browserValue the value the caller's browser kept when it started (its cookie), or null
     * @throws AccountFlowException {@code BAD_STATE}, {@code ISSUER_MISMATCH}, {@code DENIED} or {@code PROVIDER_FAILED}
     */
    public Connected finish(String query, String browserValue) {
        return flow.finish(query, browserValue);
    }

    /**
     * The user's access token for the server, refreshed first when it is about to expire; empty when they have not
     * connected, or their account can no longer be used (the refresh was refused: they connect again).
     */
    public Optional<String> accessToken(String tenantId, String userId, String server) {
        return accessTokens.current(server(server), tenantId, userId, false);
    }

    /** After the server rejected the user's access token: a refreshed one, or empty (they connect again). */
    public Optional<String> refreshAfterRejection(String tenantId, String userId, String server) {
        return accessTokens.current(server(server), tenantId, userId, true);
    }

    /** The caller's own connected accounts, by server name. */
    public List<Connection> connections(String tenantId, String userId) {
        return tokens.list(tenantId, userId).stream()
                .filter(t -> servers.containsKey(t.server()))
                .map(t -> {
                    AccountTokens held = tokens.openQuietly(t);
                    return new Connection(
                            t.server(),
                            t.connectedAt(),
                            t.updatedAt(),
                            held == null ? null : held.expiresAt(),
                            held == null ? null : held.scope());
                })
                .toList();
    }

    /**
     * Revokes the user's tokens for the server at its authorization server (when it offers revocation; a failure
     * there is logged) and forgets them.
     *
     * @return whether the user had connected it
     * @throws AccountFlowException {@code UNKNOWN_SERVER}
     */
    public boolean revoke(String tenantId, String userId, String server) {
        if (!accessTokens.revoke(server(server), tenantId, userId)) return false;
        log.info("user {} of tenant {} disconnected their account on MCP server {}", userId, tenantId, server);
        return true;
    }

    private McpServerSettings server(String name) {
        McpServerSettings settings = name == null ? null : servers.get(name);
        if (settings == null)
            throw new AccountFlowException(
                    AccountFlowException.Kind.UNKNOWN_SERVER, "no MCP server named " + name + " has auth: oauth");
        return settings;
    }
}
