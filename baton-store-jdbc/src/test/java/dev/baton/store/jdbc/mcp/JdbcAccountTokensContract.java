package dev.baton.store.jdbc.mcp;

import dev.baton.core.tool.account.AccountTokenStore;
import dev.baton.store.jdbc.Database;
import dev.baton.testkit.store.AccountTokenStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The account token contract on {@link JdbcAccountTokens}; subclasses provide a database per class. */
abstract class JdbcAccountTokensContract extends AccountTokenStoreContract {
    private Database db;
    private JdbcAccountTokens store;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        store = new JdbcAccountTokens(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected AccountTokenStore store() {
        return store;
    }
}
