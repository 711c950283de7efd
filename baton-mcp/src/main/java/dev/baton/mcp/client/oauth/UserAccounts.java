package dev.baton.mcp.client.oauth;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.account.AccountToken;
import dev.baton.core.tool.account.AccountTokenStore;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpSettings;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
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
 */
public final class UserAccounts {
    private static final Logger log = LoggerFactory.getLogger(UserAccounts.class);
    /** How long a started authorization may take to come back. */
    public static final Duration PENDING_FOR = Duration.ofMinutes(10);
    /** An access token this close to expiring is refreshed before it is used. */
    static final Duration REFRESH_MARGIN = Duration.ofSeconds(30);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, McpServerSettings> servers;
    private final URI callback;
    private final AccountTokenStore store;
    private final TokenCipher cipher;
    private final Clock clock;
    private final AuthorizationServers authorizationServers = new AuthorizationServers();
    private final OAuthClients clients;
    private final TokenEndpoint endpoint;
    /** One refresh at a time per user and server, on this instance. */
    private final Map<String, ReentrantLock> refreshLocks = new ConcurrentHashMap<>();

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
        this.store = Objects.requireNonNull(store, "store");
        this.cipher = Objects.requireNonNull(cipher, "cipher");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.clients = new OAuthClients(callback);
        this.endpoint = new TokenEndpoint(authorizationServers, clients, clock);
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
        McpServerSettings settings = server(server);
        AuthorizationServerMetadata metadata = authorizationServers.of(settings);
        OAuthClients.Client client = clients.of(settings, metadata);
        String browser = browserValue != null && browserValue.length() >= 32 ? browserValue : randomValue();
        CodeVerifier verifier = new CodeVerifier();
        PendingAuthorization pending = new PendingAuthorization(
                caller.tenantId(),
                caller.userId(),
                server,
                verifier.getValue(),
                PendingAuthorization.hashOf(browser),
                client.id().getValue(),
                clock.instant().plus(PENDING_FOR));
        AuthorizationRequest.Builder request = new AuthorizationRequest.Builder(ResponseType.CODE, client.id())
                .endpointURI(metadata.getAuthorizationEndpointURI())
                .redirectionURI(callback)
                .state(new State(pending.seal(cipher)))
                .codeChallenge(verifier, CodeChallengeMethod.S256)
                .resource(settings.oauth().resource());
        Scope scope = scope(settings, metadata);
        if (scope != null) request.scope(scope);
        return new Started(request.build().toURI(), browser);
    }

    /**
     * Finishes an authorization from the callback's query string.
     *
     * @param browserValue the value the caller's browser kept when it started (its cookie), or null
     * @throws AccountFlowException {@code BAD_STATE}, {@code ISSUER_MISMATCH}, {@code DENIED} or {@code PROVIDER_FAILED}
     */
    public Connected finish(String query, String browserValue) {
        AuthorizationResponse response;
        try {
            response = AuthorizationResponse.parse(URI.create(callback + "?" + (query == null ? "" : query)));
        } catch (ParseException | IllegalArgumentException e) {
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "not an authorization response");
        }
        if (response.getState() == null)
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "the callback has no state");
        PendingAuthorization pending;
        try {
            pending = PendingAuthorization.open(response.getState().getValue(), cipher);
        } catch (TokenCipher.SealBroken e) {
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "the state is not one Baton made");
        }
        if (!pending.expiresAt().isAfter(clock.instant()))
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the authorization took too long; start it again");
        if (!pending.startedBy(browserValue))
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the authorization was started in another browser session");
        McpServerSettings settings = servers.get(pending.server());
        if (settings == null)
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the server of this authorization is no longer configured");
        AuthorizationServerMetadata metadata = authorizationServers.of(settings);
        checkIssuer(response.getIssuer(), metadata);
        if (!response.indicatesSuccess()) {
            var error = response.toErrorResponse().getErrorObject();
            throw new AccountFlowException(
                    AccountFlowException.Kind.DENIED,
                    "the authorization server said " + error.getCode()
                            + (error.getDescription() == null ? "" : ": " + error.getDescription()));
        }
        OAuthClients.Client client = clients.byId(settings, metadata, pending.clientId());
        if (client == null)
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the authorization was started for another client");
        AuthorizationCode code = response.toSuccessResponse().getAuthorizationCode();
        if (code == null)
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "the callback carries no code");
        Tokens tokens = endpoint.exchange(
                settings,
                metadata,
                client,
                new AuthorizationCodeGrant(code, callback, new CodeVerifier(pending.codeVerifier())));
        Instant now = clock.instant();
        AccountTokens own = endpoint.own(tokens, client, null);
        save(pending.tenantId(), pending.userId(), settings.name(), own, now, now);
        log.info(
                "user {} of tenant {} connected their account on MCP server {}",
                pending.userId(),
                pending.tenantId(),
                settings.name());
        return new Connected(pending.tenantId(), pending.userId(), settings.name());
    }

    /**
     * The user's access token for the server, refreshed first when it is about to expire; empty when they have not
     * connected, or their account can no longer be used (the refresh was refused: they connect again).
     */
    public Optional<String> accessToken(String tenantId, String userId, String server) {
        return current(tenantId, userId, server, false);
    }

    /** After the server rejected the user's access token: a refreshed one, or empty (they connect again). */
    public Optional<String> refreshAfterRejection(String tenantId, String userId, String server) {
        return current(tenantId, userId, server, true);
    }

    /** The caller's own connected accounts, by server name. */
    public List<Connection> connections(String tenantId, String userId) {
        return store.list(tenantId, userId).stream()
                .filter(t -> servers.containsKey(t.server()))
                .map(t -> {
                    AccountTokens tokens = openQuietly(t);
                    return new Connection(
                            t.server(),
                            t.connectedAt(),
                            t.updatedAt(),
                            tokens == null ? null : tokens.expiresAt(),
                            tokens == null ? null : tokens.scope());
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
        McpServerSettings settings = server(server);
        AccountTokens tokens;
        // under the refresh lock: a refresh in progress must not store its tokens again after they were forgotten
        ReentrantLock lock = refreshLock(tenantId, userId, server);
        lock.lock();
        try {
            Optional<AccountToken> stored = store.find(tenantId, userId, server);
            if (stored.isEmpty()) return false;
            tokens = openQuietly(stored.get());
            store.delete(tenantId, userId, server);
        } finally {
            lock.unlock();
        }
        if (tokens != null) endpoint.revoke(settings, tokens);
        log.info("user {} of tenant {} disconnected their account on MCP server {}", userId, tenantId, server);
        return true;
    }

    private Optional<String> current(String tenantId, String userId, String server, boolean rejected) {
        McpServerSettings settings = server(server);
        Optional<AccountToken> stored = store.find(tenantId, userId, server);
        if (stored.isEmpty()) return Optional.empty();
        AccountTokens tokens = openQuietly(stored.get());
        if (tokens == null) return Optional.empty();
        if (!rejected && !tokens.expiresWithin(REFRESH_MARGIN, clock.instant())) {
            if (cipher.sealedWithOldKey(stored.get().sealed()))
                save(
                        tenantId,
                        userId,
                        server,
                        tokens,
                        stored.get().connectedAt(),
                        stored.get().updatedAt());
            return Optional.of(tokens.accessToken());
        }
        // a lock, not synchronized: the refresh waits on the network, which must not pin a virtual thread's carrier
        ReentrantLock lock = refreshLock(tenantId, userId, server);
        lock.lock();
        try {
            // another call may have refreshed meanwhile
            AccountToken latest = store.find(tenantId, userId, server).orElse(null);
            if (latest == null) return Optional.empty();
            AccountTokens now = openQuietly(latest);
            if (now == null) return Optional.empty();
            if (!now.accessToken().equals(tokens.accessToken())) return Optional.of(now.accessToken());
            return refresh(settings, tenantId, userId, latest, now);
        } finally {
            lock.unlock();
        }
    }

    private ReentrantLock refreshLock(String tenantId, String userId, String server) {
        return refreshLocks.computeIfAbsent(tenantId + "\n" + userId + "\n" + server, k -> new ReentrantLock());
    }

    private Optional<String> refresh(
            McpServerSettings settings, String tenantId, String userId, AccountToken stored, AccountTokens tokens) {
        if (tokens.refreshToken() == null) {
            store.delete(tenantId, userId, settings.name());
            return Optional.empty();
        }
        AuthorizationServerMetadata metadata = authorizationServers.of(settings);
        OAuthClients.Client client = clients.byId(settings, metadata, tokens.clientId());
        if (client == null) {
            store.delete(tenantId, userId, settings.name());
            return Optional.empty();
        }
        try {
            Tokens refreshed = endpoint.exchange(
                    settings, metadata, client, new RefreshTokenGrant(new RefreshToken(tokens.refreshToken())));
            AccountTokens own = endpoint.own(refreshed, client, tokens.refreshToken());
            save(tenantId, userId, settings.name(), own, stored.connectedAt(), clock.instant());
            return Optional.of(own.accessToken());
        } catch (AccountFlowException e) {
            if (e.kind() != AccountFlowException.Kind.DENIED) throw e;
            log.info(
                    "MCP server {}: refreshing user {}'s token was refused ({}); they must connect again",
                    settings.name(),
                    userId,
                    e.getMessage());
            store.delete(tenantId, userId, settings.name());
            return Optional.empty();
        }
    }

    /** RFC 9207: the callback's {@code iss} must be the authorization server's; missing only if it does not send one. */
    private static void checkIssuer(Issuer iss, AuthorizationServerMetadata metadata) {
        if (iss == null) {
            if (metadata.supportsAuthorizationResponseIssuerParam())
                throw new AccountFlowException(
                        AccountFlowException.Kind.ISSUER_MISMATCH, "the callback has no iss, and its server sends one");
            return;
        }
        if (!iss.equals(metadata.getIssuer()))
            throw new AccountFlowException(
                    AccountFlowException.Kind.ISSUER_MISMATCH,
                    "the callback came from " + iss + ", not from the authorization server " + metadata.getIssuer());
    }

    private static Scope scope(McpServerSettings settings, AuthorizationServerMetadata metadata) {
        if (!settings.oauth().scopes().isEmpty())
            return new Scope(settings.oauth().scopes().toArray(String[]::new));
        return null;
    }

    private void save(
            String tenantId, String userId, String server, AccountTokens tokens, Instant connectedAt, Instant now) {
        store.save(new AccountToken(
                tenantId,
                userId,
                server,
                cipher.seal(tokens.toJson(), boundTo(tenantId, userId, server)),
                connectedAt,
                now));
    }

    /** Tokens that no longer open (the key is gone, or the row was tampered with) count as not connected. */
    private AccountTokens openQuietly(AccountToken stored) {
        try {
            return AccountTokens.fromJson(
                    cipher.open(stored.sealed(), boundTo(stored.tenantId(), stored.userId(), stored.server())));
        } catch (TokenCipher.SealBroken e) {
            log.warn(
                    "user {}'s tokens for MCP server {} do not open ({}); they must connect again",
                    stored.userId(),
                    stored.server(),
                    e.getMessage());
            return null;
        }
    }

    /** A sealed token opens only as its own user's, on its own server. */
    private static String boundTo(String tenantId, String userId, String server) {
        return "mcp-account\n" + tenantId + "\n" + userId + "\n" + server;
    }

    private McpServerSettings server(String name) {
        McpServerSettings settings = name == null ? null : servers.get(name);
        if (settings == null)
            throw new AccountFlowException(
                    AccountFlowException.Kind.UNKNOWN_SERVER, "no MCP server named " + name + " has auth: oauth");
        return settings;
    }

    private static String randomValue() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
