package dev.baton.store.jdbc;

import dev.baton.runtime.conversation.HistoryKeys;
import dev.baton.testkit.store.HistoryKeysContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The history keys contract on {@link JdbcHistoryKeys}; subclasses provide a database per class. */
abstract class JdbcHistoryKeysContract extends HistoryKeysContract {
    private Database db;
    private JdbcHistoryKeys keys;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        keys = new JdbcHistoryKeys(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected HistoryKeys keys() {
        return keys;
    }
}
