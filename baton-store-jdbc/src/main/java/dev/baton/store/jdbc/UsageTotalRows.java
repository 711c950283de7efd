package dev.baton.store.jdbc;

import dev.baton.core.conversation.UsageRecord;
import dev.baton.runtime.usage.SpendSlots;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SQL for the {@code usage_totals} table: what each user and each whole tenant spent per 15-minute slot, the running
 * totals budget checks read instead of summing a month of {@code ai_usage}. Written in the transaction that inserts
 * the {@code ai_usage} rows, so the two always agree.
 *
 * <p>The costs of a turn's rows are added up here first, exactly, and then added to their slots' rows with one batched
 * upsert. Its rows are taken in key order so two transactions lock the rows they share in the same order and never
 * deadlock. On PostgreSQL the tenant's row of the current slot is one row every turn of the tenant updates: turns of
 * a tenant queue for it between the upsert and their commit, which is why it is written last. On SQLite the addition
 * is done in floating point on decimal text (writers take turns anyway), as SQLite's sums of {@code ai_usage} always
 * were; {@code JdbcUsageStore} rounds what it reads.
 */
final class UsageTotalRows {
    /** The tenant-wide rows have this user id; no caller has an empty one. */
    static final String WHOLE_TENANT = "";

    private static final String ON_CONFLICT = " ON CONFLICT (tenant_id, user_id, slot)"
            + " DO UPDATE SET cost_usd = usage_totals.cost_usd + excluded.cost_usd";
    private static final String UPSERT =
            "INSERT INTO usage_totals (tenant_id, user_id, slot, cost_usd) VALUES (?, ?, ?, ?)" + ON_CONFLICT;

    private static final Comparator<Key> ORDER =
            Comparator.comparing(Key::tenantId).thenComparing(Key::userId).thenComparing(Key::slot);

    private final ColumnCodec codec;

    UsageTotalRows(ColumnCodec codec) {
        this.codec = codec;
    }

    /**
     * Adds the rows' costs to their user's and their tenant's slots. Rows without a tenant or without a cost change
     * nothing and are left out (no budget counts a row without a tenant).
     */
    void add(Connection c, List<UsageRecord> inserted) throws SQLException {
        Map<Key, BigDecimal> costs = costs(inserted);
        if (costs.isEmpty()) return;
        try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
            for (Map.Entry<Key, BigDecimal> e : costs.entrySet()) {
                bind(ps, 1, e);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The same additions as {@link #add} as one multi-row upsert, for a statement that inserts the rows first. */
    Upsert upsert(List<UsageRecord> inserted) {
        return new Upsert(costs(inserted));
    }

    /** One upsert of every slot the rows add to, in key order; {@linkplain #isEmpty() empty} when none. */
    final class Upsert {
        private final Map<Key, BigDecimal> costs;

        private Upsert(Map<Key, BigDecimal> costs) {
            this.costs = costs;
        }

        boolean isEmpty() {
            return costs.isEmpty();
        }

        String sql() {
            return "INSERT INTO usage_totals (tenant_id, user_id, slot, cost_usd) VALUES "
                    + String.join(", ", Collections.nCopies(costs.size(), "(?, ?, ?, ?)"))
                    + ON_CONFLICT;
        }

        /** Binds the slots' parameters from {@code first} on; returns the index after them. */
        int bind(PreparedStatement ps, int first) throws SQLException {
            int next = first;
            for (Map.Entry<Key, BigDecimal> e : costs.entrySet()) next = UsageTotalRows.this.bind(ps, next, e);
            return next;
        }
    }

    private Map<Key, BigDecimal> costs(List<UsageRecord> inserted) {
        Map<Key, BigDecimal> costs = new TreeMap<>(ORDER);
        for (UsageRecord u : inserted) {
            if (u.tenantId() == null || u.costUsd().signum() == 0) continue;
            Instant slot = SpendSlots.startOf(u.createdAt());
            costs.merge(new Key(u.tenantId(), WHOLE_TENANT, slot), u.costUsd(), BigDecimal::add);
            if (!u.userId().equals(WHOLE_TENANT)) {
                costs.merge(new Key(u.tenantId(), u.userId(), slot), u.costUsd(), BigDecimal::add);
            }
        }
        return costs;
    }

    private int bind(PreparedStatement ps, int first, Map.Entry<Key, BigDecimal> e) throws SQLException {
        ps.setString(first, e.getKey().tenantId());
        ps.setString(first + 1, e.getKey().userId());
        codec.setInstant(ps, first + 2, e.getKey().slot());
        codec.setDecimal(ps, first + 3, e.getValue());
        return first + 4;
    }

    private record Key(String tenantId, String userId, Instant slot) {}
}
