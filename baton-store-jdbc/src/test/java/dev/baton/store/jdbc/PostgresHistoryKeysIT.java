package dev.baton.store.jdbc;

import dev.baton.testkit.db.PostgresTestDatabase;

/** History keys on PostgreSQL, in a schema of its own. */
class PostgresHistoryKeysIT extends JdbcHistoryKeysContract {
    private PostgresTestDatabase postgres;

    @Override
    protected String createDatabase() {
        postgres = PostgresTestDatabase.create();
        return postgres.url();
    }

    @Override
    protected void dropDatabase() {
        if (postgres != null) postgres.drop();
    }
}
