package dev.baton.store.jdbc.experiment;

import dev.baton.testkit.db.PostgresTestDatabase;

/** The flag store contract on PostgreSQL, in a schema of its own that is dropped afterwards. */
class PostgresFlagStoreIT extends JdbcFlagStoreContract {
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
