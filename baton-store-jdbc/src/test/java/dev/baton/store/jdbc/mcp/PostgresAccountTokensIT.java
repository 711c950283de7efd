package dev.baton.store.jdbc.mcp;

import dev.baton.testkit.db.PostgresTestDatabase;

/** The account token contract on PostgreSQL, in a schema of its own. */
class PostgresAccountTokensIT extends JdbcAccountTokensContract {
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
