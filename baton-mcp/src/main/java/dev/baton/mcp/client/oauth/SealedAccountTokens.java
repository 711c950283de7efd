package dev.baton.mcp.client.oauth;

import dev.baton.core.tool.account.AccountToken;
import dev.baton.core.tool.account.AccountTokenStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Users' tokens as the {@link AccountTokenStore} keeps them: sealed by the {@link TokenCipher}, each bound to its own
 * user and server, so a row opens only as what it was stored for.
 */
final class SealedAccountTokens {
    // logged as the accounts, which is what an operator looks for
    private static final Logger log = LoggerFactory.getLogger(UserAccounts.class);

    private final AccountTokenStore store;
    private final TokenCipher cipher;

    SealedAccountTokens(AccountTokenStore store, TokenCipher cipher) {
        this.store = store;
        this.cipher = cipher;
    }

    Optional<AccountToken> find(String tenantId, String userId, String server) {
        return store.find(tenantId, userId, server);
    }

    List<AccountToken> list(String tenantId, String userId) {
        return store.list(tenantId, userId);
    }

    void delete(String tenantId, String userId, String server) {
        store.delete(tenantId, userId, server);
    }

    /** Whether the row was sealed with a key that has since been replaced (it is sealed again when next read). */
    boolean sealedWithOldKey(AccountToken stored) {
        return cipher.sealedWithOldKey(stored.sealed());
    }

    void save(String tenantId, String userId, String server, AccountTokens tokens, Instant connectedAt, Instant now) {
        store.save(new AccountToken(
                tenantId,
                userId,
                server,
                cipher.seal(tokens.toJson(), boundTo(tenantId, userId, server)),
                connectedAt,
                now));
    }

    /** Tokens that no longer open (the key is gone, or the row was tampered with) count as not connected. */
    AccountTokens openQuietly(AccountToken stored) {
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
}
