package dev.baton.store.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Approvals on a SQLite file. */
class SqliteApprovalStoreIT extends JdbcApprovalStoreContract {

    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("approvals.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
