package dev.baton.mcp.client.oauth;

import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import dev.baton.core.tool.account.AccountToken;
import dev.baton.mcp.config.McpServerSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's access token for a server, refreshed shortly before it expires or after the server rejected it, one
 * refresh at a time per user and server on this instance; and the tokens revoked and forgotten when the user
 * disconnects, never stored again by a refresh that was under way.
 */
final class AccessTokens {
    // logged as the accounts, which is what an operator looks for
    private static final Logger log = LoggerFactory.getLogger(UserAccounts.class);
    /** An access token this close to expiring is refreshed before it is used. */
    static final Duration REFRESH_MARGIN = Duration.ofSeconds(30);

    private final SealedAccountTokens tokens;
    private final AuthorizationServers authorizationServers;
    private final OAuthClients clients;
    private final TokenEndpoint endpoint;
    private final Clock clock;
    /** One refresh at a time per user and server, on this instance. */
    private final Map<String, ReentrantLock> refreshLocks = new ConcurrentHashMap<>();

    AccessTokens(
            SealedAccountTokens tokens,
            AuthorizationServers authorizationServers,
            OAuthClients clients,
            TokenEndpoint endpoint,
            Clock clock) {
        this.tokens = tokens;
        this.authorizationServers = authorizationServers;
        this.clients = clients;
        this.endpoint = endpoint;
        this.clock = clock;
    }

    /**
     * The user's access token, refreshed first when it is about to expire or the server {@code rejected} it; empty
     * when they have not connected, or their account can no longer be used (the refresh was refused).
     */
    Optional<String> current(McpServerSettings settings, String tenantId, String userId, boolean rejected) {
        String server = settings.name();
        Optional<AccountToken> stored = tokens.find(tenantId, userId, server);
        if (stored.isEmpty()) return Optional.empty();
        AccountTokens held = tokens.openQuietly(stored.get());
        if (held == null) return Optional.empty();
        if (!rejected && !held.expiresWithin(REFRESH_MARGIN, clock.instant())) {
            if (tokens.sealedWithOldKey(stored.get()))
                tokens.save(
                        tenantId,
                        userId,
                        server,
                        held,
                        stored.get().connectedAt(),
                        stored.get().updatedAt());
            return Optional.of(held.accessToken());
        }
        // a lock, not synchronized: the refresh waits on the network, which must not pin a virtual thread's carrier
        ReentrantLock lock = refreshLock(tenantId, userId, server);
        lock.lock();
        try {
            // another call may have refreshed meanwhile
            AccountToken latest = tokens.find(tenantId, userId, server).orElse(null);
            if (latest == null) return Optional.empty();
            AccountTokens now = tokens.openQuietly(latest);
            if (now == null) return Optional.empty();
            if (!now.accessToken().equals(held.accessToken())) return Optional.of(now.accessToken());
            return refresh(settings, tenantId, userId, latest, now);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Forgets the user's tokens for the server and revokes them at its authorization server (when it offers
     * revocation; a failure there is logged).
     *
     * @return whether the user had connected it
     */
    boolean revoke(McpServerSettings settings, String tenantId, String userId) {
        String server = settings.name();
        AccountTokens forgotten;
        // under the refresh lock: a refresh in progress must not store its tokens again after they were forgotten
        ReentrantLock lock = refreshLock(tenantId, userId, server);
        lock.lock();
        try {
            Optional<AccountToken> stored = tokens.find(tenantId, userId, server);
            if (stored.isEmpty()) return false;
            forgotten = tokens.openQuietly(stored.get());
            tokens.delete(tenantId, userId, server);
        } finally {
            lock.unlock();
        }
        if (forgotten != null) endpoint.revoke(settings, forgotten);
        return true;
    }

    private ReentrantLock refreshLock(String tenantId, String userId, String server) {
        return refreshLocks.computeIfAbsent(tenantId + "\n" + userId + "\n" + server, k -> new ReentrantLock());
    }

    private Optional<String> refresh(
            McpServerSettings settings, String tenantId, String userId, AccountToken stored, AccountTokens held) {
        if (held.refreshToken() == null) {
            tokens.delete(tenantId, userId, settings.name());
            return Optional.empty();
        }
        AuthorizationServerMetadata metadata = authorizationServers.of(settings);
        OAuthClients.Client client = clients.byId(settings, metadata, held.clientId());
        if (client == null) {
            tokens.delete(tenantId, userId, settings.name());
            return Optional.empty();
        }
        try {
            Tokens refreshed = endpoint.exchange(
                    settings, metadata, client, new RefreshTokenGrant(new RefreshToken(held.refreshToken())));
            AccountTokens own = endpoint.own(refreshed, client, held.refreshToken());
            tokens.save(tenantId, userId, settings.name(), own, stored.connectedAt(), clock.instant());
            return Optional.of(own.accessToken());
        } catch (AccountFlowException e) {
            if (e.kind() != AccountFlowException.Kind.DENIED) throw e;
            log.info(
                    "MCP server {}: refreshing user {}'s token was refused ({}); they must connect again",
                    settings.name(),
                    userId,
                    e.getMessage());
            tokens.delete(tenantId, userId, settings.name());
            return Optional.empty();
        }
    }
}
