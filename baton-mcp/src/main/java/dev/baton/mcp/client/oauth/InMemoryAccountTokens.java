package dev.baton.mcp.client.oauth;

import dev.baton.core.tool.account.AccountToken;
import dev.baton.core.tool.account.AccountTokenStore;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Users' sealed tokens in this process only: for tests and for Baton without a database. */
public final class InMemoryAccountTokens implements AccountTokenStore {
    private record Key(String tenantId, String userId, String server) {}

    private final ConcurrentMap<Key, AccountToken> tokens = new ConcurrentHashMap<>();

    @Override
    public void save(AccountToken token) {
        tokens.merge(
                new Key(token.tenantId(), token.userId(), token.server()),
                token,
                (before, after) -> new AccountToken(
                        after.tenantId(),
                        after.userId(),
                        after.server(),
                        after.sealed(),
                        before.connectedAt(),
                        after.updatedAt()));
    }

    @Override
    public Optional<AccountToken> find(String tenantId, String userId, String server) {
        return Optional.ofNullable(tokens.get(new Key(tenantId, userId, server)));
    }

    @Override
    public List<AccountToken> list(String tenantId, String userId) {
        return tokens.values().stream()
                .filter(t -> t.tenantId().equals(tenantId) && t.userId().equals(userId))
                .sorted(Comparator.comparing(AccountToken::server))
                .toList();
    }

    @Override
    public boolean delete(String tenantId, String userId, String server) {
        return tokens.remove(new Key(tenantId, userId, server)) != null;
    }
}
