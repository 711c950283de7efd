package dev.baton.store.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on a SQLite file in a temporary folder. */
class SqliteConversationStoreIT extends JdbcConversationStoreContract {

    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        // A nested folder that does not exist yet: opening must create it.
        return "jdbc:sqlite:" + dir.resolve("data/nested/baton.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
