package dev.baton.store.jdbc;

import dev.baton.testkit.db.PostgresTestDatabase;

/** Turn leases and fencing on PostgreSQL, in a schema of its own. */
class PostgresTurnLeaseIT extends JdbcTurnLeaseContract {
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
