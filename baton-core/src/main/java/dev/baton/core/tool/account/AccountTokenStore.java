package dev.baton.core.tool.account;

import java.util.List;
import java.util.Optional;

/**
 * Where users' sealed tokens for their own accounts on tool servers are kept (baton-mcp's servers with
 * {@code auth: oauth}): baton-store-jdbc's {@code JdbcAccountTokens} in the database, baton-mcp's
 * {@code InMemoryAccountTokens} in one process. Every operation is keyed by the user: one user's tokens are never
 * read, listed or removed through another's key. baton-testkit's {@code AccountTokenStoreContract} holds every
 * adapter to this.
 */
public interface AccountTokenStore {

    /** Stores the user's tokens for the server, replacing any before (keeping the first {@code connectedAt}). */
    void save(AccountToken token);

    /** The user's tokens for the server, if they connected it. */
    Optional<AccountToken> find(String tenantId, String userId, String server);

    /** Every account the user connected, by server name. */
    List<AccountToken> list(String tenantId, String userId);

    /**
     * Forgets the user's tokens for the server.
     *
     * @return whether there were any
     */
    boolean delete(String tenantId, String userId, String server);
}
