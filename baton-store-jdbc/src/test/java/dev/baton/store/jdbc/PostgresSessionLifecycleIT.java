package dev.baton.store.jdbc;

import dev.baton.testkit.db.PostgresTestDatabase;

/** Lifecycle and search on PostgreSQL (tsvector + GIN), in a schema of its own. */
class PostgresSessionLifecycleIT extends SessionLifecycleContract {
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
