package dev.baton.store.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.core.store.StoreUnavailableException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pooled, migrated database: SQLite (one file, the embedded default) or PostgreSQL.
 *
 * <p>Transactions ({@link Transactions}): {@link #inTransaction} commits on return and rolls back on any exception. On
 * SQLite, write transactions run one at a time in this process (a fair lock) and start with {@code BEGIN IMMEDIATE},
 * so two writers never deadlock upgrading a read lock to a write lock and never see {@code SQLITE_BUSY};
 * readers run alongside them thanks to WAL. Nested calls on the same thread join the outer transaction: that is how a
 * transactional tool's writes, made by its domain's repository on this {@code Database}, commit with the record of its
 * call ({@link JdbcConversationStore#recordStepWith}).
 *
 * <p>When the database goes away: a caller waits at most {@link DatabaseSettings#connectionTimeout()} for a connection,
 * and a failure that says the database cannot be reached or cannot write (no connection, a broken one, PostgreSQL
 * shutting down, a SQLite file that became unwritable or a full disk) is thrown as a
 * {@link StoreUnavailableException}. A circuit breaker counts those: once three of the last five calls failed so, it
 * fails every call at once for {@link DatabaseSettings#breakerOpenFor()}, then lets one call probe. Other failures (a
 * constraint, a bad statement) are {@link StoreException}s and mean the database answered.
 */
public final class Database implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Database.class);

    private final Dialect dialect;
    private final HikariDataSource pool;
    private final DatabaseSettings settings;
    private final CircuitBreaker breaker;
    /** What the last call the breaker counted as failed ran into, for the log line of the breaker opening. */
    private volatile String lastFailure = "";
    /** The SQLite file, for the readiness probe's writability check; null on PostgreSQL. */
    private final Path sqliteFile;
    /** False for a host's pool ({@link #on}): the host closes it. */
    private final boolean ownsPool;

    private final Transactions transactions;

    private Database(Dialect dialect, HikariDataSource pool, DatabaseSettings settings, Path sqliteFile) {
        this(dialect, pool, settings, sqliteFile, true);
    }

    private Database(
            Dialect dialect, HikariDataSource pool, DatabaseSettings settings, Path sqliteFile, boolean ownsPool) {
        this.ownsPool = ownsPool;
        this.dialect = dialect;
        this.pool = pool;
        this.settings = settings;
        this.sqliteFile = sqliteFile;
        this.breaker = DatabaseBreaker.create(dialect, settings, () -> lastFailure);
        this.transactions = new Transactions(pool, this::failure, dialect, settings.groupCommit());
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
        return open(jdbcUrl, extraMigrationLocations, DatabaseSettings.DEFAULTS);
    }

    /** As {@link #open(String, List)}, with how to behave when the database goes away. */
    public static Database open(String jdbcUrl, List<String> extraMigrationLocations, DatabaseSettings settings) {
        Dialect dialect = Dialect.of(jdbcUrl);
        HikariDataSource pool = switch (dialect) {
            case SQLITE -> SqlitePool.create(jdbcUrl, settings);
            case POSTGRESQL -> DatabaseSetup.postgresPool(jdbcUrl, settings);
        };
        try {
            DatabaseSetup.migrate(pool, dialect, extraMigrationLocations);
        } catch (RuntimeException e) {
            pool.close();
            throw new StoreException("migrating " + Dialect.redact(jdbcUrl) + " failed: " + e.getMessage(), e);
        }
        return new Database(dialect, pool, settings, dialect == Dialect.SQLITE ? SqlitePool.fileOf(jdbcUrl) : null);
    }

    /**
     * Baton's tables in a host's PostgreSQL database, on the host's HikariCP pool (a Spring Boot app's
     * {@code DataSource}): the migrations of {@link #open(String, List)} are applied with their own Flyway history in
     * {@code historyTable}, next to the host's own history, and {@link #close()} leaves the pool to its owner.
     *
     * @param dataSource a HikariCP pool, or a wrapper of one, on PostgreSQL (SQLite needs Baton's own pool, which
     *     serialises its writers)
     * @param historyTable the table Flyway records Baton's migrations in, e.g. {@code baton_schema_history}
     * @throws IllegalArgumentException when the pool is not HikariCP's or not on PostgreSQL
     * @throws StoreException if a migration fails
     */
    public static Database on(
            DataSource dataSource,
            List<String> extraMigrationLocations,
            DatabaseSettings settings,
            String historyTable) {
        HikariDataSource pool = hikariOf(dataSource);
        String url = pool.getJdbcUrl();
        if (url == null || Dialect.of(url) != Dialect.POSTGRESQL) {
            throw new IllegalArgumentException(
                    "Baton can share a PostgreSQL pool only (SQLite needs its own); this pool" + " is on "
                            + (url == null ? "an unknown URL" : Dialect.redact(url)));
        }
        try {
            DatabaseSetup.migrate(pool, Dialect.POSTGRESQL, extraMigrationLocations, historyTable);
        } catch (RuntimeException e) {
            throw new StoreException("migrating " + Dialect.redact(url) + " failed: " + e.getMessage(), e);
        }
        return new Database(Dialect.POSTGRESQL, pool, settings, null, false);
    }

    /** The HikariCP pool {@code dataSource} is or wraps (a Spring proxy, a delegating pool). */
    private static HikariDataSource hikariOf(DataSource dataSource) {
        if (dataSource instanceof HikariDataSource hikari) return hikari;
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)) return dataSource.unwrap(HikariDataSource.class);
        } catch (java.sql.SQLException | ClassCastException e) {
            // not a wrapper after all: refused below
        }
        throw new IllegalArgumentException("Baton can share a HikariCP pool only; this DataSource is a "
                + dataSource.getClass().getName());
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
        Connection joined = transactions.current();
        if (joined != null) return transactions.joining(work, joined);
        return guarded(() -> dialect == Dialect.SQLITE ? transactions.sqlite(work) : transactions.postgres(work));
    }

    /**
     * Runs work in a transaction it may share with other threads' work: as {@link #inTransaction} for the caller
     * (commit before return, nothing kept when it throws, what it threw rethrown to the caller alone), but on SQLite
     * the work of callers writing at the same time is committed in one transaction, on whichever caller's thread
     * commits it, each work inside its own savepoint. So the work must be SQL on the given connection only: short,
     * and independent of the calling thread (its thread-locals, its locks, its interruption). Work that runs other
     * code inside the transaction (a transactional tool's domain code) belongs in {@link #inTransaction}. Nested calls
     * in the work join its transaction, as in {@link #inTransaction}; called inside this thread's transaction, the
     * work joins that one.
     *
     * <p>The caller returns only once the COMMIT that holds its work succeeded; when BEGIN or COMMIT fails, every
     * caller of the batch gets that failure. With {@link DatabaseSettings#groupCommit()} off, this is {@link
     * #inTransaction}. On PostgreSQL a batch runs on one connection in one transaction without savepoints; when a
     * write of it fails, the batch is rolled back and each write runs again in a transaction of its own (see {@link
     * Transactions#commitTogetherOnPostgres}), so the work may run twice and must do nothing but its SQL.
     */
    public <T> T inSharedTransaction(SqlWork<T> work) {
        Connection joined = transactions.current();
        if (joined != null) return transactions.joining(work, joined);
        return guarded(() ->
                dialect == Dialect.SQLITE ? transactions.sqliteShared(work) : transactions.postgresShared(work, false));
    }

    /**
     * {@link #inOneStatement} whose commit may be shared: {@link #inSharedTransaction}, except that on PostgreSQL a
     * write alone in its batch runs in autocommit (one round trip).
     */
    public <T> T inSharedStatement(SqlWork<T> work) {
        if (dialect == Dialect.SQLITE) return inSharedTransaction(work);
        Connection joined = transactions.current();
        if (joined != null) return transactions.joining(work, joined);
        return guarded(() -> transactions.postgresShared(work, true));
    }

    /** Whether this thread is inside a transaction, which its work would join. */
    boolean inTransactionOnThisThread() {
        return transactions.current() != null;
    }

    /** SQLite writes waiting for, or inside, a shared commit right now (for tests). */
    int queuedSharedWrites() {
        return transactions.queuedSharedWrites();
    }

    /**
     * Runs work that writes with exactly one statement, which is atomic by itself. On PostgreSQL it runs in autocommit:
     * no transaction to open and commit, so one round trip instead of two. On SQLite it is {@link #inTransaction}
     * (writers take turns in this process, and the commit costs the same either way). Inside this thread's
     * transaction it joins it.
     */
    public <T> T inOneStatement(SqlWork<T> work) {
        if (dialect == Dialect.SQLITE) return inTransaction(work);
        return onConnection(work, "database write failed");
    }

    /**
     * What to append to the statement a transaction's work runs last, so the transaction commits with it: {@code
     * "; COMMIT"} in a PostgreSQL transaction's own work, so the COMMIT travels in that statement's round trip, and
     * the row locks the statement takes are released as soon as the server has committed, not after the client has
     * read the answer and sent the COMMIT (a row every turn updates, such as a tenant's spending total, is then held
     * for a fraction of the time). The statement must be run with {@link PreparedStatement#execute()}, and nothing
     * may run after it: the transaction has ended. Empty on SQLite, and in work that joined an outer transaction,
     * which commits when the outer work returns.
     */
    public String commitWithLastStatement() {
        return transactions.commitWithLastStatement();
    }

    /** True when a connection answers within {@code timeoutSeconds} (health checks); never throws. */
    public boolean isUp(int timeoutSeconds) {
        return isUp(Duration.ofSeconds(timeoutSeconds));
    }

    /**
     * Whether the database is usable, answered within {@code deadline} whatever the database does (readiness checks);
     * never throws. False at once while the circuit breaker is open; otherwise a pooled connection must answer (and a
     * SQLite file must be writable). The probe counts for the breaker like any call, so it may be the one that closes
     * it again once the database is back.
     */
    public boolean isUp(Duration deadline) {
        if (!breaker.tryAcquirePermission()) return false;
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Thread.ofVirtual().name("database-probe").start(() -> answer.complete(probe()));
        try {
            return answer.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            return false;
        }
    }

    /** True while the circuit breaker lets calls through (closed, or half-open and probing). */
    public boolean available() {
        return breaker.getState() != CircuitBreaker.State.OPEN;
    }

    /**
     * Connections lent out right now (HikariCP's count). Work holds one only while it reads or writes, so under load
     * this follows the rate of reads and writes, not the number of turns open (which mostly wait on models and tools).
     */
    public int connectionsInUse() {
        return pool.getHikariPoolMXBean().getActiveConnections();
    }

    /** Threads waiting for a connection right now: above zero for long, the pool is too small for the load. */
    public int connectionsAwaited() {
        return pool.getHikariPoolMXBean().getThreadsAwaitingConnection();
    }

    /** Read-only work on a pooled connection, outside any explicit transaction (or inside this thread's one). */
    public <T> T withConnection(SqlWork<T> work) {
        return onConnection(work, "database read failed");
    }

    /** Work on a pooled connection in autocommit mode, or on this thread's transaction's. */
    private <T> T onConnection(SqlWork<T> work, String failed) {
        Connection joined = transactions.current();
        if (joined != null) return transactions.joining(work, joined);
        return guarded(() -> {
            try (Connection c = pool.getConnection()) {
                return work.run(c);
            } catch (SQLException e) {
                throw failure(failed, e);
            }
        });
    }

    /** Runs one call under the circuit breaker: refused at once while it is open. */
    private <T> T guarded(Supplier<T> call) {
        if (!breaker.tryAcquirePermission()) {
            throw new StoreUnavailableException(
                    "database unavailable: recent calls could not reach it (circuit open)",
                    settings.breakerOpenFor(),
                    null);
        }
        long started = System.nanoTime();
        try {
            T result = call.get();
            breaker.onSuccess(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            return result;
        } catch (StoreUnavailableException e) {
            lastFailure = e.getMessage();
            breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, e);
            throw e;
        } catch (RuntimeException e) {
            // the database answered (a constraint, a bad statement) or the work itself failed: not an outage
            breaker.onSuccess(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            throw e;
        } catch (Error e) {
            breaker.releasePermission();
            throw e;
        }
    }

    /** The readiness probe, on its own thread; records its outcome with the breaker (which let it through). */
    private boolean probe() {
        long started = System.nanoTime();
        try (Connection c = pool.getConnection()) {
            boolean up =
                    c.isValid((int) Math.max(1, settings.connectionTimeout().toSeconds()))
                            && (sqliteFile == null || sqliteWritable());
            if (up) {
                breaker.onSuccess(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            } else {
                lastFailure = "readiness probe: the connection is not valid or the SQLite file is not writable";
                breaker.onError(
                        System.nanoTime() - started,
                        TimeUnit.NANOSECONDS,
                        new StoreUnavailableException("readiness probe failed", settings.breakerOpenFor(), null));
            }
            return up;
        } catch (SQLException | RuntimeException e) {
            lastFailure = "readiness probe: " + e.getMessage();
            breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, e);
            return false;
        }
    }

    /** SQLite writes to the database file and its write-ahead log: both must still be writable. */
    private boolean sqliteWritable() {
        Path wal = sqliteFile.resolveSibling(sqliteFile.getFileName() + "-wal");
        return Files.isWritable(sqliteFile) && (!Files.exists(wal) || Files.isWritable(wal));
    }

    /**
     * The exception for a failed statement: {@link StoreUnavailableException} when it says the database cannot be
     * reached or cannot write, else a {@link StoreException}.
     */
    private RuntimeException failure(String what, SQLException e) {
        if (Unavailability.of(e)) {
            return new StoreUnavailableException(
                    what + ": database unavailable: " + e.getMessage(), settings.breakerOpenFor(), e);
        }
        return new StoreException(what + ": " + e.getMessage(), e);
    }

    /** Closes the pool Baton opened; a host's pool ({@link #on}) stays open for its owner. */
    @Override
    public void close() {
        if (ownsPool) pool.close();
    }
}
