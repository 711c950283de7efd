package dev.baton.store.jdbc;

import dev.baton.testkit.db.PostgresTestDatabase;

/** The audit contract on PostgreSQL, in a schema of its own. */
class PostgresAuditStoreIT extends JdbcAuditStoreContract {
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
