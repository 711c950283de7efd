package dev.baton.store.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The turn persistence contract on a SQLite file in a temporary folder. */
class SqliteTurnPersistenceIT extends JdbcTurnPersistenceContract {

    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("turns.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
