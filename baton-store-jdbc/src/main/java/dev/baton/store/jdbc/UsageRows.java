package dev.baton.store.jdbc;

import dev.baton.core.conversation.UsageRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL for the {@code ai_usage} table, and the running totals of {@code usage_totals} that go with it. Rows are never
 * deleted with their conversation: budgets count them.
 */
final class UsageRows {
    private final ColumnCodec codec;
    private final UsageTotalRows totals;

    UsageRows(ColumnCodec codec) {
        this.codec = codec;
        this.totals = new UsageTotalRows(codec);
    }

    /**
     * Inserts the rows and adds their cost to the totals budgets read, in the caller's transaction: two statements,
     * whatever the number of rows. Holds the tenant's current totals row until the transaction ends (see
     * {@link UsageTotalRows}): call it last.
     *
     * @param skipStored true to skip rows whose id is already stored (a retried write; their cost is not added
     *     again), false to refuse them
     */
    void insertAll(Connection c, List<UsageRecord> usage, boolean skipStored) throws SQLException {
        if (usage.isEmpty()) return;
        int[] counts;
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO ai_usage (id, tenant_id, user_id, session_id, message_id,"
                        + " provider, model, input_tokens, output_tokens, cost_usd, latency_ms, created_at,"
                        + " cached_input_tokens, agent_id)"
                        // the agent is copied from the session so reports by agent survive the session's deletion
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        + " (SELECT s.agent_id FROM sessions s WHERE s.id = ?))"
                        + (skipStored ? " ON CONFLICT (id) DO NOTHING" : ""))) {
            for (UsageRecord u : usage) {
                ps.setString(1, u.id());
                ps.setString(2, u.tenantId());
                ps.setString(3, u.userId());
                ps.setString(4, u.sessionId());
                ps.setString(5, u.messageId());
                ps.setString(6, u.provider());
                ps.setString(7, u.model());
                ps.setLong(8, u.inputTokens());
                ps.setLong(9, u.outputTokens());
                codec.setDecimal(ps, 10, u.costUsd());
                ps.setLong(11, u.latencyMs());
                codec.setInstant(ps, 12, u.createdAt());
                ps.setLong(13, u.cachedInputTokens());
                ps.setString(14, u.sessionId());
                ps.addBatch();
            }
            counts = ps.executeBatch();
        }
        totals.add(c, skipStored ? inserted(usage, counts) : usage);
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
