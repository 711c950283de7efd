package dev.baton.store.jdbc;

import dev.baton.testkit.db.PostgresTestDatabase;

/** The turn persistence contract on PostgreSQL, in a schema of its own that is dropped afterwards. */
class PostgresTurnPersistenceIT extends JdbcTurnPersistenceContract {
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
