package dev.baton.store.jdbc.experiment;

import dev.baton.testkit.db.PostgresTestDatabase;

/** The experiment store contract on PostgreSQL, in a schema of its own that is dropped afterwards. */
class PostgresExperimentStoreIT extends JdbcExperimentStoreContract {
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
