package dev.baton.store.jdbc.experiment;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The flag store contract on a SQLite file. */
class SqliteFlagStoreIT extends JdbcFlagStoreContract {
    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("flags.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
