package dev.baton.store.jdbc.usage;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The usage store contract on a SQLite file. */
class SqliteUsageStoreIT extends UsageStoreContract {
    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("usage.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
