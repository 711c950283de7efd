package dev.baton.store.jdbc.experiment;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The experiment store contract on a SQLite file. */
class SqliteExperimentStoreIT extends JdbcExperimentStoreContract {
    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("experiments.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
