package dev.baton.store.jdbc.mcp;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The account token contract on a SQLite file. */
class SqliteAccountTokensIT extends JdbcAccountTokensContract {
    @TempDir
    static Path dir;

    @Override
    protected String createDatabase() {
        return "jdbc:sqlite:" + dir.resolve("account-tokens.db");
    }

    @Override
    protected void dropDatabase() {
        // the temporary folder goes away by itself
    }
}
