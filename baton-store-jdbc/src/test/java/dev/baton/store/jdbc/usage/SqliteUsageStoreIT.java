package dev.baton.store.jdbc.usage;

import dev.baton.core.id.Ids;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The usage store contract on SQLite files. */
class SqliteUsageStoreIT extends JdbcUsageStoreContract {
    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("usage-" + Ids.newId() + ".db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
