package dev.baton.store.jdbc;

import dev.baton.core.conversation.UsageRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * SQL for the {@code ai_usage} table, and the running totals of {@code usage_totals} that go with it. Rows are never
 * deleted with their conversation: budgets count them.
 */
final class UsageRows {
    private static final String COLUMNS = "id, tenant_id, user_id, session_id, message_id, provider, model,"
            + " input_tokens, output_tokens, cost_usd, latency_ms, created_at, cached_input_tokens, agent_id";
    // the agent is copied from the session so reports by agent survive the session's deletion
    private static final String ROW =
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT s.agent_id FROM sessions s WHERE s.id = ?))";

    private final Dialect dialect;
    private final ColumnCodec codec;
    private final UsageTotalRows totals;

    UsageRows(Dialect dialect) {
        this.dialect = dialect;
        this.codec = ColumnCodec.of(dialect);
        this.totals = new UsageTotalRows(codec);
    }

    /**
     * Inserts the rows and adds their cost to the totals budgets read, in the caller's transaction: two statements,
     * whatever the number of rows; one on PostgreSQL, where the insert is a data-modifying {@code WITH} of the totals'
     * upsert (one round trip less for every turn). Holds the tenant's current totals row until the transaction ends
     * (see {@link UsageTotalRows}): call it last.
     *
     * @param skipStored true to skip rows whose id is already stored (a retried write; their cost is not added
     *     again), false to refuse them
     */
    void insertAll(Connection c, List<UsageRecord> usage, boolean skipStored) throws SQLException {
        insertAll(c, usage, skipStored, "");
    }

    /**
     * {@link #insertAll} as the transaction's last statement: {@code commit} is {@link
     * Database#commitWithLastStatement()}, appended to the one statement PostgreSQL runs (SQLite ignores it).
     */
    void insertAllLast(Connection c, List<UsageRecord> usage, String commit) throws SQLException {
        insertAll(c, usage, false, commit);
    }

    private void insertAll(Connection c, List<UsageRecord> usage, boolean skipStored, String commit)
            throws SQLException {
        if (usage.isEmpty()) return;
        // a retried write adds only the rows it inserted, which the batch's counts tell
        if (dialect == Dialect.POSTGRESQL && !skipStored) {
            insertWithTotals(c, usage, commit);
            return;
        }
        int[] counts;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ai_usage (" + COLUMNS + ") VALUES " + ROW
                + (skipStored ? " ON CONFLICT (id) DO NOTHING" : ""))) {
            for (UsageRecord u : usage) {
                bind(ps, 1, u);
                ps.addBatch();
            }
            counts = ps.executeBatch();
        }
        totals.add(c, skipStored ? inserted(usage, counts) : usage);
    }

    /** PostgreSQL: the rows and their totals in one statement, followed by {@code commit}. */
    private void insertWithTotals(Connection c, List<UsageRecord> usage, String commit) throws SQLException {
        StatementChain chain = new StatementChain();
        insertAllLastIn(chain, usage);
        chain.run(c, commit);
    }

    /**
     * {@link #insertAllLast} as the last part of a PostgreSQL chain (the rows and their totals in one statement): it
     * holds the tenant's totals row from there to the end of the transaction, so nothing may follow it but the COMMIT.
     */
    void insertAllLastIn(StatementChain chain, List<UsageRecord> usage) {
        if (usage.isEmpty()) return;
        if (dialect != Dialect.POSTGRESQL) throw new IllegalStateException("a chain is PostgreSQL's");
        UsageTotalRows.Upsert upsert = totals.upsert(usage);
        String rows = String.join(", ", Collections.nCopies(usage.size(), ROW));
        String insert = "INSERT INTO ai_usage (" + COLUMNS + ") VALUES " + rows;
        chain.add(upsert.isEmpty() ? insert : "WITH u AS (" + insert + ") " + upsert.sql(), (ps, first) -> {
            int next = first;
            for (UsageRecord u : usage) next = bind(ps, next, u);
            return upsert.bind(ps, next);
        });
    }

    /** Binds one row's parameters from {@code first} on and returns the index after them. */
    private int bind(PreparedStatement ps, int first, UsageRecord u) throws SQLException {
        ps.setString(first, u.id());
        ps.setString(first + 1, u.tenantId());
        ps.setString(first + 2, u.userId());
        ps.setString(first + 3, u.sessionId());
        ps.setString(first + 4, u.messageId());
        ps.setString(first + 5, u.provider());
        ps.setString(first + 6, u.model());
        ps.setLong(first + 7, u.inputTokens());
        ps.setLong(first + 8, u.outputTokens());
        codec.setDecimal(ps, first + 9, u.costUsd());
        ps.setLong(first + 10, u.latencyMs());
        codec.setInstant(ps, first + 11, u.createdAt());
        ps.setLong(first + 12, u.cachedInputTokens());
        ps.setString(first + 13, u.sessionId());
        return first + 14;
    }

    /**
     * The rows the batch inserted: a skipped one reports 0. A driver that cannot tell ({@link
     * Statement#SUCCESS_NO_INFO}, pgjdbc rewriting batched inserts) has the row counted as inserted: a retried row then
     * counts twice against budgets, never zero times.
     */
    private static List<UsageRecord> inserted(List<UsageRecord> usage, int[] counts) {
        List<UsageRecord> inserted = new ArrayList<>(usage.size());
        for (int i = 0; i < usage.size(); i++) {
            if (i >= counts.length || counts[i] != 0) inserted.add(usage.get(i));
        }
        return inserted;
    }
}
