package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.db.PostgresTestDatabase;
import org.junit.jupiter.api.Test;

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

    @Test
    void a_one_statement_write_runs_in_autocommit_and_a_transaction_does_not() {
        boolean oneStatement = db.inOneStatement(c -> c.getAutoCommit());
        boolean transaction = db.inTransaction(c -> c.getAutoCommit());
        boolean joined = db.inTransaction(outer -> db.inOneStatement(c -> c == outer));

        assertThat(oneStatement).as("one statement").isTrue();
        assertThat(transaction).as("a transaction").isFalse();
        assertThat(joined).as("one statement inside a transaction joins it").isTrue();
    }
}
