package dev.baton.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pooled, migrated database: SQLite (one file, the embedded default) or PostgreSQL.
 *
 * <p>Transactions: {@link #inTransaction} commits on return and rolls back on any exception. On SQLite,
 * write transactions run one at a time in this process (a fair lock) and start with {@code BEGIN IMMEDIATE},
 * so two writers never deadlock upgrading a read lock to a write lock and never see {@code SQLITE_BUSY};
 * readers run alongside them thanks to WAL. Nested calls on the same thread join the outer transaction.
 */
public final class Database implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Database.class);
    private static final String BATON_MIGRATIONS = "classpath:db/migration/baton";
    /** How long a SQLite writer waits for this process's write lock before giving up. */
    private static final long WRITE_LOCK_TIMEOUT_SECONDS = 30;

    private final Dialect dialect;
    private final HikariDataSource pool;
    private final ReentrantLock sqliteWriteLock = new ReentrantLock(true);
    /** The connection of the transaction this thread is in, so nested work joins it. */
    private final ThreadLocal<Connection> currentTransaction = new ThreadLocal<>();

    private Database(Dialect dialect, HikariDataSource pool) {
        this.dialect = dialect;
        this.pool = pool;
    }

    /**
     * Opens a pool on the URL ({@code jdbc:sqlite:path} or {@code jdbc:postgresql://...}) and applies Flyway
     * migrations from {@code classpath:db/migration/baton/{sqlite|postgresql}} plus each extra location's
     * dialect sub-folder (extra {@code classpath:db/migration/tasks} → {@code classpath:db/migration/tasks/sqlite}).
     * Baton's own migrations use versions V1..V99; other modules' locations use V100 and up.
     *
     * @throws StoreException if the database cannot be reached or a migration fails
     */
    public static Database open(String jdbcUrl, List<String> extraMigrationLocations) {
        Dialect dialect = Dialect.of(jdbcUrl);
        HikariDataSource pool = switch (dialect) {
            case SQLITE -> SqlitePool.create(jdbcUrl);
            case POSTGRESQL -> postgresPool(jdbcUrl);
        };
        try {
            migrate(pool, dialect, extraMigrationLocations);
        } catch (RuntimeException e) {
            pool.close();
            throw new StoreException("migrating " + Dialect.redact(jdbcUrl) + " failed: " + e.getMessage(), e);
        }
        return new Database(dialect, pool);
    }

    /** Opens a pool on the URL with Baton's own migrations only; see {@link #open(String, List)}. */
    public static Database open(String jdbcUrl) {
        return open(jdbcUrl, List.of());
    }

    public Dialect dialect() {
        return dialect;
    }

    /** How this database's dialect stores instants and decimals. */
    public ColumnCodec columns() {
        return ColumnCodec.of(dialect);
    }

    /** The pool, for libraries that want a {@link DataSource}; prefer {@link #inTransaction}. */
    public DataSource dataSource() {
        return pool;
    }

    /**
     * Runs work in one transaction: commit on return, rollback on any exception. A {@link SQLException} is
     * rethrown as a {@link StoreException}; runtime exceptions pass through unchanged after the rollback.
     */
    public <T> T inTransaction(SqlWork<T> work) {
        Connection joined = currentTransaction.get();
        if (joined != null) return runWrapped(work, joined);
        return dialect == Dialect.SQLITE ? sqliteTransaction(work) : postgresTransaction(work);
    }

    /** Read-only work on a pooled connection, outside any explicit transaction (or inside this thread's one). */
    /** True when a connection answers within {@code timeoutSeconds} (health checks); never throws. */
    public boolean isUp(int timeoutSeconds) {
        try {
            return withConnection(c -> c.isValid(timeoutSeconds));
        } catch (RuntimeException e) {
            return false;
        }
    }

    public <T> T withConnection(SqlWork<T> work) {
        Connection joined = currentTransaction.get();
        if (joined != null) return runWrapped(work, joined);
        try (Connection c = pool.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new StoreException("database read failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        pool.close();
    }

    private <T> T sqliteTransaction(SqlWork<T> work) {
        acquireWriteLock();
        try (Connection c = pool.getConnection()) {
            // Explicit BEGIN IMMEDIATE in autocommit mode: takes the write lock up front (waiting up to
            // busy_timeout for other processes) and leaves no transaction open when the connection returns.
            exec(c, "BEGIN IMMEDIATE");
            currentTransaction.set(c);
            T result;
            try {
                result = work.run(c);
                exec(c, "COMMIT");
            } catch (SQLException | RuntimeException | Error e) {
                rollbackQuietly(c, "ROLLBACK", e);
                throw e;
            } finally {
                currentTransaction.remove();
            }
            return result;
        } catch (SQLException e) {
            throw new StoreException("database write failed: " + e.getMessage(), e);
        } finally {
            sqliteWriteLock.unlock();
        }
    }

    private <T> T postgresTransaction(SqlWork<T> work) {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            currentTransaction.set(c);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                try {
                    c.rollback();
                } catch (SQLException rollbackFailure) {
                    e.addSuppressed(rollbackFailure);
                }
                throw e;
            } finally {
                currentTransaction.remove();
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException("database write failed: " + e.getMessage(), e);
        }
    }

    private void acquireWriteLock() {
        try {
            if (!sqliteWriteLock.tryLock(WRITE_LOCK_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new StoreException(
                        "timed out waiting " + WRITE_LOCK_TIMEOUT_SECONDS + "s for the SQLite write lock");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted waiting for the SQLite write lock", e);
        }
    }

    private void rollbackQuietly(Connection c, String sql, Throwable cause) {
        try {
            exec(c, sql);
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
            // The connection may still hold an open transaction; never hand it to the next caller.
            pool.evictConnection(c);
        }
    }

    private static <T> T runWrapped(SqlWork<T> work, Connection c) {
        try {
            return work.run(c);
        } catch (SQLException e) {
            throw new StoreException("database work failed: " + e.getMessage(), e);
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static HikariDataSource postgresPool(String jdbcUrl) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("baton-postgresql");
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(10);
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new StoreException("cannot connect to " + Dialect.redact(jdbcUrl) + ": " + e.getMessage(), e);
        }
    }

    private static void migrate(DataSource dataSource, Dialect dialect, List<String> extraLocations) {
        List<String> locations = new ArrayList<>();
        locations.add(BATON_MIGRATIONS + "/" + dialect.migrationFolder());
        for (String extra : extraLocations) {
            String base = extra.endsWith("/") ? extra.substring(0, extra.length() - 1) : extra;
            locations.add(base + "/" + dialect.migrationFolder());
        }
        var result = Flyway.configure()
                .dataSource(dataSource)
                .locations(locations.toArray(String[]::new))
                .load()
                .migrate();
        log.info(
                "database migrated: dialect={} applied={} version={}",
                dialect,
                result.migrationsExecuted,
                result.targetSchemaVersion);
    }
}
