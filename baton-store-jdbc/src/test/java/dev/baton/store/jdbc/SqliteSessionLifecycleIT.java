package dev.baton.store.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Lifecycle and search on a SQLite file (FTS5). */
class SqliteSessionLifecycleIT extends SessionLifecycleContract {

    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("lifecycle.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
