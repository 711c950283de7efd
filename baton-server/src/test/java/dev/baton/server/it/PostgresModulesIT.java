package dev.baton.server.it;

import java.nio.file.Path;

/** The module flows on PostgreSQL. */
class PostgresModulesIT extends ModulesContract {
    private Postgres postgres;

    @Override
    protected String createDatabase(Path dir) {
        postgres = Postgres.freshSchema();
        return postgres.url();
    }

    @Override
    protected void dropDatabase() {
        if (postgres != null) postgres.close();
    }
}
