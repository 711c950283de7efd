package dev.baton.store.jdbc.experiment;

import dev.baton.core.id.Ids;
import dev.baton.runtime.experiment.ArmMetrics;
import dev.baton.runtime.experiment.EvalRun;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.ExperimentDefinition;
import dev.baton.runtime.experiment.ExperimentStore;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.SessionArm;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Experiments in {@code experiments}, {@code experiment_sessions}, {@code experiment_turns} and
 * {@code experiment_eval_runs}, with the {@code operator_audit} trail; shared by every instance. A definition change is
 * a compare-and-set on its version, written with its audit record in one transaction. Per-arm metrics come from
 * {@link ArmMetricsQuery}.
 */
public final class JdbcExperimentStore implements ExperimentStore {
    private final Database db;
    private final ColumnCodec columns;
    private final ArmMetricsQuery metrics;

    public JdbcExperimentStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.columns = db.columns();
        this.metrics = new ArmMetricsQuery(db);
    }

    @Override
    public List<Experiment> experiments() {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT id, definition, version FROM experiments ORDER BY created_at, id")) {
                return read(ps);
            }
        });
    }

    @Override
    public Optional<Experiment> experiment(String id) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT id, definition, version FROM experiments WHERE id = ?")) {
                ps.setString(1, id);
                return read(ps).stream().findFirst();
            }
        });
    }

    @Override
    public Optional<Instant> changedAt(String id) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT updated_at FROM experiments WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(columns.getInstant(rs, "updated_at")) : Optional.empty();
                }
            }
        });
    }

    private static List<Experiment> read(PreparedStatement ps) throws SQLException {
        List<Experiment> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next())
                out.add(ExperimentDefinition.fromJson(
                        rs.getString("id"), rs.getString("definition"), rs.getLong("version")));
        }
        return out;
    }

    @Override
    public boolean create(Experiment experiment, OperatorAuditRecord audit) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO experiments (id, base_agent_id, definition, version, created_at, updated_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
                ps.setString(1, experiment.id());
                ps.setString(2, experiment.baseAgentId());
                ps.setString(3, ExperimentDefinition.toJson(experiment));
                ps.setLong(4, experiment.version());
                columns.setInstant(ps, 5, audit.at());
                columns.setInstant(ps, 6, audit.at());
                if (ps.executeUpdate() == 0) return false;
            }
            OperatorAuditRows.insert(c, columns, audit);
            return true;
        });
    }

    @Override
    public boolean replace(Experiment changed, long expectedVersion, OperatorAuditRecord audit) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE experiments SET definition = ?, version = ?,"
                    + " updated_at = ? WHERE id = ? AND version = ?")) {
                ps.setString(1, ExperimentDefinition.toJson(changed));
                ps.setLong(2, changed.version());
                columns.setInstant(ps, 3, audit.at());
                ps.setString(4, changed.id());
                ps.setLong(5, expectedVersion);
                if (ps.executeUpdate() == 0) return false;
            }
            OperatorAuditRows.insert(c, columns, audit);
            return true;
        });
    }

    @Override
    public void recordSession(SessionArm arm) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO experiment_sessions (session_id,"
                    + " experiment_id, arm, tenant_id, user_id, started_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, arm.sessionId());
                ps.setString(2, arm.experimentId());
                ps.setString(3, arm.arm());
                ps.setString(4, arm.tenantId());
                ps.setString(5, arm.userId());
                columns.setInstant(ps, 6, arm.startedAt());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Optional<SessionArm> sessionArm(String sessionId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT session_id, experiment_id, arm, tenant_id, user_id,"
                    + " started_at FROM experiment_sessions WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    return Optional.of(new SessionArm(
                            rs.getString("session_id"),
                            rs.getString("experiment_id"),
                            rs.getString("arm"),
                            rs.getString("tenant_id"),
                            rs.getString("user_id"),
                            columns.getInstant(rs, "started_at")));
                }
            }
        });
    }

    @Override
    public void recordTurn(SessionArm arm, String turnId, String status, long latencyMs, Instant at) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO experiment_turns (id, experiment_id, arm,"
                    + " session_id, tenant_id, user_id, status, latency_ms, created_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
                ps.setString(1, turnId);
                ps.setString(2, arm.experimentId());
                ps.setString(3, arm.arm());
                ps.setString(4, arm.sessionId());
                ps.setString(5, arm.tenantId());
                ps.setString(6, arm.userId());
                ps.setString(7, status);
                ps.setLong(8, latencyMs);
                columns.setInstant(ps, 9, at);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public List<String> recentTurnStatuses(
            String experimentId, String tenantId, String userId, Instant since, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT status FROM experiment_turns"
                    + " WHERE experiment_id = ? AND tenant_id = ? AND user_id = ? AND created_at >= ? AND arm <> ?"
                    + " ORDER BY created_at DESC LIMIT ?")) {
                ps.setString(1, experimentId);
                ps.setString(2, tenantId);
                ps.setString(3, userId);
                columns.setInstant(ps, 4, since);
                ps.setString(5, dev.baton.runtime.experiment.Routing.FALLBACK_ARM);
                ps.setInt(6, limit);
                List<String> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) out.add(rs.getString(1));
                }
                return out;
            }
        });
    }

    @Override
    public void recordEvalRun(EvalRun run, OperatorAuditRecord audit) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO experiment_eval_runs (id, experiment_id, arm,"
                    + " suite, scenarios, passed, recorded_by, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, Ids.newId());
                ps.setString(2, run.experimentId());
                ps.setString(3, run.arm());
                ps.setString(4, run.suite());
                ps.setInt(5, run.scenarios());
                ps.setInt(6, run.passed());
                ps.setString(7, run.recordedBy());
                columns.setInstant(ps, 8, run.recordedAt());
                ps.executeUpdate();
            }
            OperatorAuditRows.insert(c, columns, audit);
            return null;
        });
    }

    @Override
    public List<ArmMetrics> metrics(Experiment experiment, Instant since) {
        return metrics.of(experiment, since);
    }

    @Override
    public List<OperatorAuditRecord> auditTrail(String subject, int limit) {
        return db.withConnection(c -> OperatorAuditRows.newest(c, columns, subject, limit));
    }
}
