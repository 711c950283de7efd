package dev.baton.store.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.core.store.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
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
    /** Shares commits between threads; null when group commit is off. */
    private final GroupCommit groupCommit;

    Transactions(
            HikariDataSource pool,
            BiFunction<String, SQLException, RuntimeException> failure,
            Dialect dialect,
            boolean groupCommit) {
        this.pool = pool;
        this.failure = failure;
        this.groupCommit = !groupCommit
                ? null
                : new GroupCommit(
                        this, dialect == Dialect.SQLITE ? this::commitTogether : this::commitTogetherOnPostgres);
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

    /** Runs the work alone in its own SQLite write transaction. */
    <T> T sqlite(SqlWork<T> work) {
        SharedWrite<T> write = new SharedWrite<>(work, null);
        lockWrites();
        try {
            commitTogether(List.of(write));
        } finally {
            unlockWrites();
        }
        return write.outcome(failure);
    }

    /**
     * Runs the work in a SQLite write transaction it may share with other threads' work ({@link GroupCommit}), or
     * alone as {@link #sqlite} when group commit is off.
     */
    <T> T sqliteShared(SqlWork<T> work) {
        return groupCommit == null ? sqlite(work) : groupCommit.commit(work, false);
    }

    /**
     * Runs the work in a PostgreSQL transaction it may share with other threads' work ({@link GroupCommit}), or alone
     * as {@link #postgres} when group commit is off. {@code oneStatement}: the work writes with one statement, so alone
     * it runs in autocommit (one round trip).
     */
    <T> T postgresShared(SqlWork<T> work, boolean oneStatement) {
        if (groupCommit != null) return groupCommit.commit(work, oneStatement);
        return oneStatement ? autocommit(work) : postgres(work);
    }

    /** SQLite writes queued for a shared commit, a running batch included; 0 when group commit is off. */
    int queuedSharedWrites() {
        return groupCommit == null ? 0 : groupCommit.queued();
    }

    /**
     * Runs the writes in one transaction on one connection, with this process's write lock held, keeping in each
     * write its result or failure; throws nothing. A single write runs as a plain {@code BEGIN IMMEDIATE … COMMIT}.
     * Several each run inside a savepoint: one that throws is rolled back to it and fails alone, the others are kept.
     * When BEGIN, a savepoint or COMMIT fails, every write of the batch fails with that failure.
     */
    void commitTogether(List<? extends SharedWrite<?>> writes) {
        Connection c = connectionOrFail(writes);
        if (c == null) return;
        try (c) {
            boolean clean = runInOneTransaction(c, writes);
            // SQLite opens a file it may not write read-only and stays so: a connection that found the file
            // unwritable is replaced once the file is writable again, or the outage would outlive its cause
            if (!clean || writes.stream().anyMatch(w -> w.failed() && outOfReach(w.failure()))) pool.evictConnection(c);
        } catch (SQLException closeFailure) {
            // the pool evicts a connection it cannot take back by itself; the writes' outcomes stand
        }
    }

    /** A pooled connection for a batch; null when there is none, every write of the batch failed with the reason. */
    private Connection connectionOrFail(List<? extends SharedWrite<?>> writes) {
        try {
            return pool.getConnection();
        } catch (SQLException e) {
            for (SharedWrite<?> w : writes) w.failWith(e);
            return null;
        }
    }

    /** Runs the batch; false when the connection may still hold an open transaction. */
    private boolean runInOneTransaction(Connection c, List<? extends SharedWrite<?>> writes) {
        try {
            // Explicit BEGIN IMMEDIATE in autocommit mode: takes the write lock up front (waiting up to
            // busy_timeout for other processes) and leaves no transaction open when the connection returns.
            exec(c, "BEGIN IMMEDIATE");
        } catch (SQLException e) {
            for (SharedWrite<?> w : writes) w.failWith(e);
            return true;
        }
        boolean savepoints = writes.size() > 1;
        boolean anyKept = false;
        for (SharedWrite<?> w : writes) {
            try {
                if (savepoints) exec(c, "SAVEPOINT write");
                current.set(new Open(c, false));
                boolean ran;
                try {
                    ran = w.runOn(c);
                } finally {
                    current.remove();
                }
                if (savepoints && !ran) exec(c, "ROLLBACK TO write");
                if (savepoints) exec(c, "RELEASE write");
                anyKept |= ran;
            } catch (SQLException e) {
                // the transaction is in doubt (SQLite may have rolled it back by itself): nothing of it is kept
                for (SharedWrite<?> other : writes) other.failWith(e);
                return rollbackQuietly(c, e);
            }
        }
        if (!anyKept) {
            return rollbackQuietly(c, writes.getFirst().failure());
        }
        try {
            exec(c, "COMMIT");
            return true;
        } catch (SQLException e) {
            for (SharedWrite<?> w : writes) w.failWith(e);
            return rollbackQuietly(c, e);
        }
    }

    /** A failure that says the database cannot be reached or written, for which the connection is replaced. */
    private static boolean outOfReach(Throwable t) {
        return t instanceof StoreUnavailableException || (t instanceof SQLException e && Unavailability.of(e));
    }

    /** The exception for a failed statement, as {@link Database} reports it. */
    RuntimeException failedStatement(String what, SQLException e) {
        return failure.apply(what, e);
    }

    /**
     * Runs a batch of writes on one PostgreSQL connection, keeping each one's outcome in it; throws nothing. Alone, a
     * write runs as {@link #postgres} (or in autocommit when it is one statement). Several run in one transaction with
     * no savepoints (each would cost a round trip): when one of them fails, PostgreSQL has aborted the transaction, so
     * it is rolled back and every write runs again, each in a transaction of its own, where only the failing one fails.
     * Their work is SQL on the connection it is given, so running it again after a rollback does it once.
     */
    void commitTogetherOnPostgres(List<SharedWrite<?>> writes) {
        Connection c = connectionOrFail(writes);
        if (c == null) return;
        try (c) {
            if (writes.size() == 1 && writes.getFirst().oneStatement) {
                writes.getFirst().runOn(c);
                return;
            }
            c.setAutoCommit(false);
            try {
                if (writes.size() > 1 && runTogether(c, writes)) return;
                for (SharedWrite<?> w : writes) {
                    w.forget();
                    runAlone(c, w);
                }
            } finally {
                restoreAutoCommit(c);
            }
        } catch (SQLException | RuntimeException e) {
            for (SharedWrite<?> w : writes) w.failWith(e);
        }
    }

    /** The writes in one transaction; false when one failed and the transaction was rolled back. */
    private boolean runTogether(Connection c, List<SharedWrite<?>> writes) throws SQLException {
        for (SharedWrite<?> w : writes) {
            if (!ranOrRolledBack(c, w, false)) return false;
        }
        commitOrFail(c, writes);
        return true;
    }

    /** One write in its own transaction, its last statement allowed to carry the COMMIT (see {@link #postgres}). */
    private void runAlone(Connection c, SharedWrite<?> w) throws SQLException {
        if (ranOrRolledBack(c, w, true)) commitOrFail(c, List.of(w));
    }

    /** Runs one write in the connection's open transaction; when it fails, rolls that transaction back. */
    private boolean ranOrRolledBack(Connection c, SharedWrite<?> w, boolean ownWork) throws SQLException {
        current.set(new Open(c, ownWork));
        boolean ran;
        try {
            ran = w.runOn(c);
        } finally {
            current.remove();
        }
        if (!ran) c.rollback();
        return ran;
    }

    /** Commits; when that fails, every write of the transaction fails with it. */
    private static void commitOrFail(Connection c, List<SharedWrite<?>> writes) {
        try {
            c.commit();
        } catch (SQLException e) {
            for (SharedWrite<?> w : writes) w.failWith(e);
            rollbackQuietly(c);
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken: the pool evicts it, and the failure reported is the commit's
        }
    }

    /** One statement in autocommit on a pooled connection. */
    private <T> T autocommit(SqlWork<T> work) {
        try (Connection c = pool.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw failure.apply("database write failed", e);
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

    /** Takes this process's SQLite write lock; every SQLite write transaction holds it. */
    void lockWrites() {
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

    void unlockWrites() {
        sqliteWriteLock.unlock();
    }

    /** Rolls back; false when that failed and the connection may still hold an open transaction. */
    private static boolean rollbackQuietly(Connection c, Throwable cause) {
        try {
            exec(c, "ROLLBACK");
            return true;
        } catch (SQLException rollbackFailure) {
            if (cause != rollbackFailure) cause.addSuppressed(rollbackFailure);
            return false;
        }
    }

    /** BEGIN IMMEDIATE, COMMIT, ROLLBACK: prepared, so a SQLite connection compiles each once. */
    private static void exec(Connection c, String sql) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.executeUpdate();
        }
    }
}
