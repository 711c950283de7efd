package dev.baton.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL statements sent as one: pgjdbc splits a statement's text at its semicolons and sends each part's Parse,
 * Bind and Execute followed by a single Sync, so the chain costs one round trip however many parts it has. The server
 * stops at the first part that fails and skips the rest (a COMMIT at the end is then not run: the transaction is left
 * aborted, for its owner to roll back). A part that must not be skipped over silently (an UPDATE that found no row)
 * therefore has to fail, not just change nothing; see {@link #EXPECTED_ROW_MISSING}.
 */
final class StatementChain {
    /**
     * PostgreSQL's SQLSTATE for a division by zero. A part checks that it touched a row with {@code SELECT 1 /
     * count(*) FROM} its data-modifying {@code WITH}: an aggregate always gives one row, so the division runs, and fails
     * on none. (A constant {@code 1 / 0} would be folded when the statement is planned and fail every time.)
     */
    static final String EXPECTED_ROW_MISSING = "22012";

    /** Binds a part's parameters from {@code first} on and returns the index after them. */
    @FunctionalInterface
    interface Binder {
        int bind(PreparedStatement ps, int first) throws SQLException;
    }

    /** Reads the rows a part returns. */
    @FunctionalInterface
    interface Reader {
        void read(ResultSet rs) throws SQLException;
    }

    private record Part(String sql, Binder binder, Reader reader) {}

    private final List<Part> parts = new ArrayList<>();

    /** A part whose result, an update count or rows, is not read. */
    StatementChain add(String sql, Binder binder) {
        parts.add(new Part(sql, binder, null));
        return this;
    }

    /** A part that returns rows, read by {@code reader} once the chain ran. */
    StatementChain add(String sql, Binder binder, Reader reader) {
        parts.add(new Part(sql, binder, reader));
        return this;
    }

    boolean isEmpty() {
        return parts.isEmpty();
    }

    /** The chain's text, {@code commit} ({@link Database#commitWithLastStatement()}) after its last part. */
    String sql(String commit) {
        StringBuilder sql = new StringBuilder(256 * parts.size());
        for (Part p : parts) {
            if (!sql.isEmpty()) sql.append("; ");
            sql.append(p.sql());
        }
        return sql.append(commit).toString();
    }

    /** A part's check failed ({@link #EXPECTED_ROW_MISSING}): nothing after it ran, the transaction is to roll back. */
    static final class CheckFailed extends RuntimeException {
        CheckFailed() {
            super(null, null, false, false);
        }
    }

    /**
     * Runs the chain in one round trip, then reads the parts' rows in order.
     *
     * @throws CheckFailed when a part's check failed
     */
    void run(Connection c, String commit) throws SQLException {
        try {
            execute(c, commit);
        } catch (SQLException e) {
            if (EXPECTED_ROW_MISSING.equals(e.getSQLState())) throw new CheckFailed();
            throw e;
        }
    }

    private void execute(Connection c, String commit) throws SQLException {
        if (parts.isEmpty()) throw new IllegalStateException("an empty chain");
        try (PreparedStatement ps = c.prepareStatement(sql(commit))) {
            int next = 1;
            for (Part p : parts) next = p.binder().bind(ps, next);
            // each part gives one result: rows, or an update count
            boolean rows = ps.execute();
            for (Part p : parts) {
                if (rows && p.reader() != null) {
                    try (ResultSet rs = ps.getResultSet()) {
                        p.reader().read(rs);
                    }
                } else if (!rows && ps.getUpdateCount() == -1) {
                    throw new IllegalStateException("the chain gave fewer results than its " + parts.size() + " parts");
                }
                rows = ps.getMoreResults();
            }
        }
    }
}
