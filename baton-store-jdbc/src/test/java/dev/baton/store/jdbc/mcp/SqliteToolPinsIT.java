package dev.baton.store.jdbc.mcp;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The pin contract on a SQLite file. */
class SqliteToolPinsIT extends JdbcToolPinsContract {
    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("pins.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
