package dev.baton.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/** A small pool of SQLite connections, each set up for WAL, foreign keys and a busy timeout, each keeping its prepared statements. */
final class SqlitePool {
    /** Writes are serialised by {@link Database}; the extra connections serve concurrent readers under WAL. */
    private static final int MAX_CONNECTIONS = 4;

    private static final int BUSY_TIMEOUT_MS = 5_000;
    private static final int WAL_AUTOCHECKPOINT_PAGES = 10_000;

    private SqlitePool() {}

    static HikariDataSource create(String jdbcUrl, DatabaseSettings settings) {
        Path file = fileOf(jdbcUrl);
        createParentFolder(file);

        SQLiteConfig sqlite = new SQLiteConfig();
        sqlite.setJournalMode(SQLiteConfig.JournalMode.WAL);
        sqlite.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        sqlite.setBusyTimeout(BUSY_TIMEOUT_MS);
        // a checkpoint copies the WAL's pages into the database file and syncs both, in the commit that crosses the
        // threshold; at 10,000 pages instead of 1,000 a page many turns write (a session's row, an index's newest leaf)
        // is copied once for ten times as many commits, and the WAL stays under about 40 MB
        sqlite.setPragma(SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, Integer.toString(WAL_AUTOCHECKPOINT_PAGES));
        sqlite.enforceForeignKeys(true);
        // keys are UUIDs made by Baton; without this the driver runs SELECT last_insert_rowid() after every INSERT
        sqlite.setGetGeneratedKeys(false);
        SQLiteDataSource dataSource = new SQLiteDataSource(sqlite);
        dataSource.setUrl(jdbcUrl);

        HikariConfig config = new HikariConfig();
        config.setPoolName("baton-sqlite");
        config.setDataSource(new StatementCachingDataSource(dataSource));
        config.setMaximumPoolSize(MAX_CONNECTIONS);
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        config.setValidationTimeout(DatabaseSetup.validationTimeout(settings));
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new StoreException("cannot open SQLite database " + file + ": " + e.getMessage(), e);
        }
    }

    /** The database file of a {@code jdbc:sqlite:} URL; in-memory databases are refused (each pooled connection would get its own). */
    static Path fileOf(String jdbcUrl) {
        String rest = jdbcUrl.substring("jdbc:sqlite:".length());
        int query = rest.indexOf('?');
        String path = query < 0 ? rest : rest.substring(0, query);
        if (path.startsWith("file:")) path = path.substring("file:".length());
        if (path.isBlank() || path.contains(":memory:") || path.contains("mode=memory")) {
            throw new IllegalArgumentException(
                    "SQLite needs a file (an in-memory database is not shared across the pool): " + jdbcUrl);
        }
        return Path.of(path);
    }

    private static void createParentFolder(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null) return;
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new StoreException(
                    "cannot create the folder of the SQLite database " + file + ": " + e.getMessage(), e);
        }
    }
}
