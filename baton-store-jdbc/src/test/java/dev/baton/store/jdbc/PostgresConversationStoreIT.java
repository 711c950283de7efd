package dev.baton.store.jdbc;

import dev.baton.testkit.db.PostgresTestDatabase;

/** The store contract on PostgreSQL, in a schema of its own that is dropped afterwards. */
class PostgresConversationStoreIT extends JdbcConversationStoreContract {
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
