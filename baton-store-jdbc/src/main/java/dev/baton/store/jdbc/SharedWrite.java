package dev.baton.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.Condition;
import java.util.function.BiFunction;

/**
 * One caller's write, and how it ended: run inside a transaction it may share with other callers' writes
 * ({@link GroupCommit}), on whichever thread commits that transaction. Its outcome is read by its caller only once the
 * transaction has ended, and only after {@link GroupCommit} published it under its lock.
 */
final class SharedWrite<T> {
    private final SqlWork<T> work;
    /** The work writes with one statement: alone, on PostgreSQL, it needs no transaction of its own. */
    final boolean oneStatement;
    /** Signalled when this write is done, or when it reached the front of the queue and its caller must lead. */
    final Condition turn;
    /** Drained into a batch that is running: its caller must wait for that batch's end. Guarded by the queue's lock. */
    boolean taken;
    /** Its transaction ended (committed or not). Guarded by the queue's lock. */
    boolean done;

    private T result;
    private Throwable failure;

    SharedWrite(SqlWork<T> work, Condition turn) {
        this(work, turn, false);
    }

    SharedWrite(SqlWork<T> work, Condition turn, boolean oneStatement) {
        this.work = work;
        this.turn = turn;
        this.oneStatement = oneStatement;
    }

    /** Runs the work on {@code c}, keeping its result or whatever it threw; true when it returned. */
    boolean runOn(Connection c) {
        try {
            result = work.run(c);
            return true;
        } catch (Throwable t) {
            failure = t;
            return false;
        }
    }

    /** Forgets how a run ended whose transaction was rolled back, so the write can run again on its own. */
    void forget() {
        result = null;
        failure = null;
    }

    boolean failed() {
        return failure != null;
    }

    Throwable failure() {
        return failure;
    }

    /** Its transaction failed as a whole (BEGIN, a savepoint or COMMIT): what it did is not kept. */
    void failWith(Throwable cause) {
        if (failure == null) failure = cause;
        result = null;
    }

    /**
     * What the caller gets: the result, or what the work threw as it threw it, or a failed statement as {@link
     * Database} reports it.
     */
    T outcome(BiFunction<String, SQLException, RuntimeException> failedStatement) {
        return switch (failure) {
            case null -> result;
            case SQLException e -> throw failedStatement.apply("database write failed", e);
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            default -> throw new StoreException("database write failed: " + failure, failure);
        };
    }
}
