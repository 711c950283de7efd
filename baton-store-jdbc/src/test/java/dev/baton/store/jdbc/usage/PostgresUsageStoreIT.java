package dev.baton.store.jdbc.usage;

import dev.baton.testkit.db.PostgresTestDatabase;

/** The usage store contract on PostgreSQL, in a schema of its own that is dropped afterwards. */
class PostgresUsageStoreIT extends UsageStoreContract {
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
