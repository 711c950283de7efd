package dev.baton.store.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** History keys on a SQLite file. */
class SqliteHistoryKeysIT extends JdbcHistoryKeysContract {

    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("history-keys.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
