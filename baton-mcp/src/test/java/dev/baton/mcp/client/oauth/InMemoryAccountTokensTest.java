package dev.baton.mcp.client.oauth;

import dev.baton.core.tool.account.AccountTokenStore;
import dev.baton.testkit.store.AccountTokenStoreContract;

/** The account token contract (baton-testkit's) on {@link InMemoryAccountTokens}, one store for the class. */
class InMemoryAccountTokensTest extends AccountTokenStoreContract {
    private final AccountTokenStore store = new InMemoryAccountTokens();

    @Override
    protected AccountTokenStore store() {
        return store;
    }
}
