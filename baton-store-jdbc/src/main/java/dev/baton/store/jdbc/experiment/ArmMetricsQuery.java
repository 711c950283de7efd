package dev.baton.store.jdbc.experiment;

import dev.baton.runtime.experiment.Arm;
import dev.baton.runtime.experiment.ArmMetrics;
import dev.baton.runtime.experiment.EvalRun;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.Routing;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each arm's metrics over a window, in aggregate queries whose number depends on the arms, never on the traffic:
 * turns and failures (experiment_turns: a count per arm), p50 and p95 latency (nearest rank: two single-row reads per
 * arm with turns; both walk covering indexes, never the table), conversations and their cost (experiment_sessions joined to ai_usage by session,
 * grouped), tool calls and failures (joined to tool_calls, grouped), and each arm's latest eval run. The
 * session-based figures count the conversations started in the window.
 */
final class ArmMetricsQuery {
    /** Tool call states that count as a tool error (cancelled and deduplicated calls do not). */
    private static final String TOOL_ERRORS = "'failed', 'invalid_arguments', 'timed_out', 'denied'";
    /** Turn statuses that are not errors (the runtime's list). */
    private static final String TURN_OK = ArmMetrics.NOT_ERRORS.stream()
            .sorted()
            .map(s -> "'" + s + "'")
            .collect(java.util.stream.Collectors.joining(", "));

    private final Database db;
    private final ColumnCodec columns;

    ArmMetricsQuery(Database db) {
        this.db = db;
        this.columns = db.columns();
    }

    List<ArmMetrics> of(Experiment e, Instant since) {
        return db.withConnection(c -> {
            Map<String, long[]> turns = new HashMap<>();
            for (Arm a : e.arms()) turns.put(a.name(), turns(c, e.id(), a.name(), since));
            if (e.fallback() != null) turns.put(Routing.FALLBACK_ARM, turns(c, e.id(), Routing.FALLBACK_ARM, since));
            Map<String, Conversations> conversations = conversations(c, e.id(), since);
            Map<String, long[]> tools = tools(c, e.id(), since);
            Map<String, EvalRun> evals = latestEvals(c, e.id());
            List<String> arms = new ArrayList<>(e.arms().stream().map(Arm::name).toList());
            if (e.fallback() != null) arms.add(Routing.FALLBACK_ARM);
            List<ArmMetrics> out = new ArrayList<>();
            for (String arm : arms) {
                long[] t = turns.getOrDefault(arm, new long[3]);
                long p50 = t[0] == 0 ? 0 : percentile(c, e.id(), arm, since, t[0], 0.50);
                long p95 = t[0] == 0 ? 0 : percentile(c, e.id(), arm, since, t[0], 0.95);
                Conversations conv = conversations.getOrDefault(arm, new Conversations(0, BigDecimal.ZERO));
                long[] tc = tools.getOrDefault(arm, new long[2]);
                out.add(new ArmMetrics(
                        arm, t[0], t[1], t[2], p50, p95, conv.count(), conv.cost(), tc[0], tc[1], evals.get(arm)));
            }
            return out;
        });
    }

    /** One arm's turns, failed turns and distinct users, over the (experiment, arm, created_at, status) index range. */
    private long[] turns(Connection c, String id, String arm, Instant since) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) AS turns,"
                + " COALESCE(SUM(CASE WHEN status IN (" + TURN_OK + ") THEN 0 ELSE 1 END), 0) AS failed,"
                + " COUNT(DISTINCT tenant_id || ' ' || user_id) AS users"
                + " FROM experiment_turns WHERE experiment_id = ? AND arm = ? AND created_at >= ?")) {
            ps.setString(1, id);
            ps.setString(2, arm);
            columns.setInstant(ps, 3, since);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong("turns"), rs.getLong("failed"), rs.getLong("users")};
            }
        }
    }

    /** The nearest-rank percentile: the value at rank ceil(p * n) of the n latencies in order. */
    private long percentile(Connection c, String id, String arm, Instant since, long n, double p) throws SQLException {
        long rank = Math.max(1, (long) Math.ceil(p * n));
        try (PreparedStatement ps = c.prepareStatement("SELECT latency_ms FROM experiment_turns"
                + " WHERE experiment_id = ? AND arm = ? AND created_at >= ? ORDER BY latency_ms LIMIT 1 OFFSET ?")) {
            ps.setString(1, id);
            ps.setString(2, arm);
            columns.setInstant(ps, 3, since);
            ps.setLong(4, rank - 1);
            try (ResultSet rs = ps.executeQuery()) {
                // a turn recorded between the count and this read can only add rows: there is a row at this rank
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private record Conversations(long count, BigDecimal cost) {}

    private Map<String, Conversations> conversations(Connection c, String id, Instant since) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT es.arm AS arm,"
                + " COUNT(DISTINCT es.session_id) AS conversations, " + costSum("u.cost_usd") + " AS cost"
                + " FROM experiment_sessions es LEFT JOIN ai_usage u ON u.session_id = es.session_id"
                + " WHERE es.experiment_id = ? AND es.started_at >= ? GROUP BY es.arm")) {
            ps.setString(1, id);
            columns.setInstant(ps, 2, since);
            Map<String, Conversations> out = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next())
                    out.put(rs.getString("arm"), new Conversations(rs.getLong("conversations"), cost(rs)));
            }
            return out;
        }
    }

    private Map<String, long[]> tools(Connection c, String id, Instant since) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT es.arm AS arm, COUNT(*) AS calls,"
                + " SUM(CASE WHEN t.state IN (" + TOOL_ERRORS + ") THEN 1 ELSE 0 END) AS failed"
                + " FROM experiment_sessions es JOIN tool_calls t ON t.session_id = es.session_id"
                + " WHERE es.experiment_id = ? AND es.started_at >= ? GROUP BY es.arm")) {
            ps.setString(1, id);
            columns.setInstant(ps, 2, since);
            Map<String, long[]> out = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString("arm"), new long[] {rs.getLong("calls"), rs.getLong("failed")});
            }
            return out;
        }
    }

    private Map<String, EvalRun> latestEvals(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT arm, suite, scenarios, passed, recorded_by, recorded_at"
                + " FROM experiment_eval_runs e WHERE experiment_id = ? AND recorded_at = (SELECT MAX(recorded_at)"
                + " FROM experiment_eval_runs x WHERE x.experiment_id = e.experiment_id AND x.arm = e.arm)"
                + " ORDER BY id DESC")) {
            ps.setString(1, id);
            Map<String, EvalRun> out = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next())
                    out.putIfAbsent(
                            rs.getString("arm"),
                            new EvalRun(
                                    id,
                                    rs.getString("arm"),
                                    rs.getString("suite"),
                                    rs.getInt("scenarios"),
                                    rs.getInt("passed"),
                                    rs.getString("recorded_by"),
                                    columns.getInstant(rs, "recorded_at")));
            }
            return out;
        }
    }

    private String costSum(String expression) {
        return db.dialect() == Dialect.SQLITE
                ? "COALESCE(SUM(CAST(" + expression + " AS REAL)), 0)"
                : "COALESCE(SUM(" + expression + "), 0)";
    }

    private BigDecimal cost(ResultSet rs) throws SQLException {
        if (db.dialect() == Dialect.SQLITE)
            // SQLite sums decimal text in floating point: rounded far below a cent
            return BigDecimal.valueOf(rs.getDouble("cost")).setScale(8, RoundingMode.HALF_EVEN);
        BigDecimal sum = rs.getBigDecimal("cost");
        return sum == null ? BigDecimal.ZERO : sum;
    }
}
