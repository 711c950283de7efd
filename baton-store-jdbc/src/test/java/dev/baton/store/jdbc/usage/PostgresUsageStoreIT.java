package dev.baton.store.jdbc.usage;

import dev.baton.testkit.db.PostgresTestDatabase;
import java.util.ArrayList;
import java.util.List;

/** The usage store contract on PostgreSQL, in schemas of its own that are dropped afterwards. */
class PostgresUsageStoreIT extends JdbcUsageStoreContract {
    private final List<PostgresTestDatabase> schemas = new ArrayList<>();

    @Override
    protected String createDatabase() {
        PostgresTestDatabase postgres = PostgresTestDatabase.create();
        schemas.add(postgres);
        return postgres.url();
    }

    @Override
    protected void dropDatabase() {
        schemas.forEach(PostgresTestDatabase::drop);
    }
}
