package dev.baton.store.jdbc.usage;

import dev.baton.runtime.usage.PeriodSpend;
import dev.baton.runtime.usage.SpendSlots;
import dev.baton.runtime.usage.UsageDimension;
import dev.baton.runtime.usage.UsagePeriod;
import dev.baton.runtime.usage.UsageStore;
import dev.baton.runtime.usage.UsageTotals;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads what model calls cost: aggregated reports for administrators (from {@code ai_usage}) and the spend that
 * budgets are checked against (from {@code usage_totals}, the running totals per 15-minute slot written with every
 * {@code ai_usage} row, so a check reads at most a month of slots however busy the month was). Each method is one SQL
 * statement.
 *
 * <p>Costs are summed exactly on PostgreSQL ({@code numeric}). SQLite keeps costs as decimal text and sums them in
 * floating point, so its sums are rounded to {@value #SQLITE_SUM_SCALE} decimal places (far below a cent).
 */
public final class JdbcUsageStore implements UsageStore {

    static final int SQLITE_SUM_SCALE = 8;
    /** The user id of a tenant's own totals (as {@code UsageTotalRows} writes them). */
    private static final String WHOLE_TENANT = "";

    private final Database db;
    private final ColumnCodec codec;

    public JdbcUsageStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    /**
     * Tokens and cost of a tenant's model calls in a period, grouped by the given dimensions (none: one total row),
     * ordered by group. At most {@link #MAX_GROUPS} rows.
     */
    @Override
    public List<UsageTotals> report(String tenantId, UsagePeriod period, List<UsageDimension> groupBy) {
        Objects.requireNonNull(tenantId, "tenantId");
        List<UsageDimension> dims = List.copyOf(new LinkedHashSet<>(groupBy));
        List<String> columns = new ArrayList<>();
        for (UsageDimension d : dims) columns.add(column(d) + " AS g_" + d.wireName());
        String groupList =
                String.join(", ", dims.stream().map(d -> "g_" + d.wireName()).toList());
        String sql = "SELECT " + (columns.isEmpty() ? "" : String.join(", ", columns) + ", ")
                + "COUNT(*) AS calls, SUM(input_tokens) AS input_tokens,"
                + " SUM(cached_input_tokens) AS cached_input_tokens, SUM(output_tokens) AS output_tokens, "
                + costSum("cost_usd") + " AS cost_usd"
                + " FROM ai_usage WHERE tenant_id = ? AND created_at >= ? AND created_at < ?"
                + (dims.isEmpty() ? "" : " GROUP BY " + groupList + " ORDER BY " + groupList)
                + " LIMIT " + MAX_GROUPS;
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, tenantId);
                codec.setInstant(ps, 2, period.from());
                codec.setInstant(ps, 3, period.to());
                List<UsageTotals> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Map<UsageDimension, String> group = new EnumMap<>(UsageDimension.class);
                        for (UsageDimension d : dims) group.put(d, rs.getString("g_" + d.wireName()));
                        rows.add(new UsageTotals(
                                group,
                                rs.getLong("calls"),
                                rs.getLong("input_tokens"),
                                rs.getLong("output_tokens"),
                                rs.getLong("cached_input_tokens"),
                                decimal(rs, "cost_usd")));
                    }
                }
                return rows;
            }
        });
    }

    /**
     * What one user of a tenant spent since {@code dayStart} and since {@code monthStart} (which must not be later
     * than {@code dayStart}); both must be {@link SpendSlots slot} starts.
     */
    @Override
    public PeriodSpend userSpend(String tenantId, String userId, Instant dayStart, Instant monthStart) {
        Objects.requireNonNull(userId, "userId");
        // the empty user id names the tenant's own totals
        if (userId.isEmpty()) throw new IllegalArgumentException("userId is empty");
        return spend(tenantId, userId, dayStart, monthStart);
    }

    /** What a whole tenant spent since {@code dayStart} and since {@code monthStart}; both slot starts. */
    @Override
    public PeriodSpend tenantSpend(String tenantId, Instant dayStart, Instant monthStart) {
        return spend(tenantId, WHOLE_TENANT, dayStart, monthStart);
    }

    /**
     * One range read of the totals' primary key: at most 31 days of 96 slots. The bounds must be slot starts, or the
     * slot they lie in would count whole (or not at all); {@code BudgetGuard} gives slot starts for every time zone.
     */
    private PeriodSpend spend(String tenantId, String userId, Instant dayStart, Instant monthStart) {
        Objects.requireNonNull(tenantId, "tenantId");
        if (dayStart.isBefore(monthStart)) throw new IllegalArgumentException("the day must lie within the month");
        if (!SpendSlots.isStart(dayStart) || !SpendSlots.isStart(monthStart)) {
            throw new IllegalArgumentException("spend is totalled per " + SpendSlots.LENGTH.toMinutes()
                    + " minutes of UTC time: the day and month must start at a slot's start, got " + dayStart + " and "
                    + monthStart);
        }
        String sql = "SELECT " + costSum("CASE WHEN slot >= ? THEN cost_usd END") + " AS today, "
                + costSum("cost_usd") + " AS this_month"
                + " FROM usage_totals WHERE tenant_id = ? AND user_id = ? AND slot >= ?";
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                codec.setInstant(ps, 1, dayStart);
                ps.setString(2, tenantId);
                ps.setString(3, userId);
                codec.setInstant(ps, 4, monthStart);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new PeriodSpend(decimal(rs, "today"), decimal(rs, "this_month"));
                }
            }
        });
    }

    private String column(UsageDimension d) {
        return switch (d) {
            case USER -> "user_id";
            case AGENT -> "agent_id";
            case MODEL -> "COALESCE(provider, '') || ':' || model";
            case DAY ->
                db.dialect() == Dialect.SQLITE
                        // timestamps are ISO-8601 UTC text: the first ten characters are the UTC day
                        ? "substr(created_at, 1, 10)"
                        : "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')";
        };
    }

    private String costSum(String expression) {
        return db.dialect() == Dialect.SQLITE
                ? "COALESCE(SUM(CAST(" + expression + " AS REAL)), 0)"
                : "COALESCE(SUM(" + expression + "), 0)";
    }

    private BigDecimal decimal(ResultSet rs, String column) throws SQLException {
        if (db.dialect() == Dialect.SQLITE) {
            double sum = rs.getDouble(column);
            return BigDecimal.valueOf(sum).setScale(SQLITE_SUM_SCALE, RoundingMode.HALF_EVEN);
        }
        BigDecimal sum = rs.getBigDecimal(column);
        return sum == null ? BigDecimal.ZERO : sum;
    }
}
