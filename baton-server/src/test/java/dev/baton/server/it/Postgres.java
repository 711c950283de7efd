package dev.baton.server.it;

import dev.baton.testkit.db.PostgresTestDatabase;

/** A throwaway schema in the local PostgreSQL for one test; see {@link PostgresTestDatabase} for the CI rule. */
final class Postgres implements AutoCloseable {
    private final PostgresTestDatabase database = PostgresTestDatabase.create();

    static Postgres freshSchema() {
        return new Postgres();
    }

    String url() {
        return database.url();
    }

    @Override
    public void close() {
        database.drop();
    }
}
