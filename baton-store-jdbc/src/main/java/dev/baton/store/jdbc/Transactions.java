package dev.baton.store.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.core.store.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

/**
 * How {@link Database} runs a transaction on each dialect, and the transaction this thread is in, which nested work
 * joins. On SQLite, write transactions take turns in this process (a fair lock) and start with {@code BEGIN
 * IMMEDIATE}; on PostgreSQL the connection leaves autocommit for the work and returns to it afterwards.
 */
final class Transactions {
    /** How long a SQLite writer waits for this process's write lock before giving up. */
    private static final long WRITE_LOCK_TIMEOUT_SECONDS = 30;

    /**
     * The transaction a thread's work runs in: its connection, and whether the running work is the transaction's own
     * on PostgreSQL (so its last statement may carry the COMMIT) rather than work that joined it.
     */
    private record Open(Connection connection, boolean ownPostgresWork) {}

    private final HikariDataSource pool;
    /** The exception for a failed statement, as {@link Database} reports it. */
    private final BiFunction<String, SQLException, RuntimeException> failure;

    private final ReentrantLock sqliteWriteLock = new ReentrantLock(true);
    private final ThreadLocal<Open> current = new ThreadLocal<>();

    Transactions(HikariDataSource pool, BiFunction<String, SQLException, RuntimeException> failure) {
        this.pool = pool;
        this.failure = failure;
    }

    /** The connection of this thread's transaction, or null outside one. */
    Connection current() {
        Open open = current.get();
        return open == null ? null : open.connection();
    }

    /** See {@link Database#commitWithLastStatement()}. */
    String commitWithLastStatement() {
        Open open = current.get();
        return open != null && open.ownPostgresWork() ? "; COMMIT" : "";
    }

    /** Work that joins this thread's transaction on {@code c}: it must not end it. */
    <T> T joining(SqlWork<T> work, Connection c) {
        Open outer = current.get();
        current.set(new Open(c, false));
        try {
            return work.run(c);
        } catch (SQLException e) {
            throw failure.apply("database work failed", e);
        } finally {
            current.set(outer);
        }
    }

    <T> T sqlite(SqlWork<T> work) {
        acquireWriteLock();
        try (Connection c = pool.getConnection()) {
            try {
                // Explicit BEGIN IMMEDIATE in autocommit mode: takes the write lock up front (waiting up to
                // busy_timeout for other processes) and leaves no transaction open when the connection returns.
                exec(c, "BEGIN IMMEDIATE");
                current.set(new Open(c, false));
                T result;
                try {
                    result = work.run(c);
                    exec(c, "COMMIT");
                } catch (SQLException | RuntimeException | Error e) {
                    rollbackQuietly(c, e);
                    throw e;
                } finally {
                    current.remove();
                }
                return result;
            } catch (SQLException | StoreUnavailableException e) {
                // SQLite opens a file it may not write read-only and stays so: a connection that found the file
                // unwritable is replaced once the file is writable again, or the outage would outlive its cause
                if (!(e instanceof SQLException sql) || Unavailability.of(sql)) pool.evictConnection(c);
                throw e;
            }
        } catch (SQLException e) {
            throw failure.apply("database write failed", e);
        } finally {
            sqliteWriteLock.unlock();
        }
    }

    <T> T postgres(SqlWork<T> work) {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            current.set(new Open(c, true));
            try {
                T result = work.run(c);
                // a no-op when the work's last statement committed already (the driver knows the server is idle)
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
                current.remove();
                restoreAutoCommit(c);
            }
        } catch (SQLException e) {
            throw failure.apply("database write failed", e);
        }
    }

    /**
     * Puts a connection back in autocommit mode for the pool; a connection the failure closed (the database went
     * away) is left alone, so the failure that closed it is the one reported.
     */
    private static void restoreAutoCommit(Connection c) {
        try {
            if (!c.isClosed()) c.setAutoCommit(true);
        } catch (SQLException ignored) {
            // the pool evicts a broken connection by itself
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

    private void rollbackQuietly(Connection c, Throwable cause) {
        try {
            exec(c, "ROLLBACK");
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
            // The connection may still hold an open transaction; never hand it to the next caller.
            pool.evictConnection(c);
        }
    }

    /** BEGIN IMMEDIATE, COMMIT, ROLLBACK: prepared, so a SQLite connection compiles each once. */
    private static void exec(Connection c, String sql) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.executeUpdate();
        }
    }
}
