package dev.baton.store.jdbc;

import static dev.baton.store.jdbc.ApprovalRows.CALL_COLUMNS;
import static dev.baton.store.jdbc.ApprovalRows.CLAIM_COLUMNS;
import static dev.baton.store.jdbc.ApprovalRows.TURN_COLUMNS;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.id.Ids;
import dev.baton.runtime.approval.ApprovalStatus;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.runtime.approval.PausedTurn;
import dev.baton.runtime.approval.ToolApproval;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@link ApprovalStore} on SQLite or PostgreSQL ({@code paused_turns}, {@code tool_approvals}). A decision first
 * touches its turn's row ({@code UPDATE … WHERE status = 'paused'}), which serialises the decisions of one turn on
 * PostgreSQL as SQLite's single writer does, then moves the call out of {@code pending} with a conditional update: of
 * two racing decisions exactly one changes the row, and the one that leaves nothing pending claims the turn.
 */
public final class JdbcApprovalStore implements ApprovalStore {
    private static final String RESUMED = PausedTurn.Status.RESUMED.wireName();
    private static final String PENDING = ApprovalStatus.PENDING.wireName();
    private static final String PAUSED = PausedTurn.Status.PAUSED.wireName();

    private final Database db;
    private final ColumnCodec codec;
    private final ApprovalRows rows;

    public JdbcApprovalStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
        this.rows = new ApprovalRows(codec);
    }

    @Override
    public void pause(PausedTurn turn, List<ToolApproval> approvals) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO paused_turns (" + TURN_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, turn.turnId());
                ps.setString(2, turn.tenantId());
                ps.setString(3, turn.userId());
                ps.setString(4, turn.sessionId());
                ps.setString(5, turn.requestId());
                ps.setString(6, turn.state());
                ps.setString(7, turn.status().wireName());
                codec.setInstant(ps, 8, turn.pausedAt());
                codec.setInstant(ps, 9, turn.expiresAt());
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_approvals (" + CALL_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (ToolApproval a : approvals) {
                    rows.bind(ps, a);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    @Override
    public Optional<ToolApproval> find(String tenantId, String userId, String sessionId, String callId) {
        return db.withConnection(c -> rows.one(
                c,
                "SELECT " + CALL_COLUMNS + " FROM tool_approvals"
                        + " WHERE id = ? AND tenant_id = ? AND user_id = ? AND session_id = ?",
                callId,
                tenantId,
                userId,
                sessionId));
    }

    @Override
    public List<ToolApproval> pending(String tenantId, String userId, String sessionId) {
        return db.withConnection(c -> rows.calls(
                c,
                "SELECT " + CALL_COLUMNS + " FROM tool_approvals WHERE tenant_id = ? AND user_id = ?"
                        + " AND session_id = ? AND status = '" + PENDING + "' ORDER BY created_at, call_index",
                tenantId,
                userId,
                sessionId));
    }

    /** The JDBC conversation store on this store's database reads {@code paused_turns} in its append. */
    @Override
    public boolean pausedTurnsSeenBy(ConversationStore conversations) {
        return conversations instanceof JdbcConversationStore jdbc && jdbc.database() == db;
    }

    @Override
    public Optional<PausedTurn> pausedTurn(String tenantId, String userId, String sessionId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT " + TURN_COLUMNS + CLAIM_COLUMNS + " FROM paused_turns"
                            + " WHERE session_id = ? AND tenant_id = ? AND user_id = ? AND status = '" + PAUSED
                            + "' ORDER BY paused_at DESC LIMIT 1")) {
                ps.setString(1, sessionId);
                ps.setString(2, tenantId);
                ps.setString(3, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rows.turn(rs)) : Optional.<PausedTurn>empty();
                }
            }
        });
    }

    @Override
    public Decided decide(String callId, Decision decision, Instant now, Instant claimUntil) {
        return db.inTransaction(c -> {
            Optional<ToolApproval> current =
                    rows.one(c, "SELECT " + CALL_COLUMNS + " FROM tool_approvals WHERE id = ?", callId);
            if (current.isEmpty()) return new NotPending(null);
            String turnId = current.get().turnId();
            // the turn's row first: decisions of one turn take their turns, so the last one sees nothing pending
            if (!touchPaused(c, turnId)) return new NotPending(current.get());
            int changed;
            try (PreparedStatement ps = c.prepareStatement("UPDATE tool_approvals SET status = ?, decided_at = ?,"
                    + " decided_by = ?, decided_arguments = ?, comment = ?"
                    + " WHERE id = ? AND status = '" + PENDING + "' AND expires_at > ?")) {
                ps.setString(1, decision.status().wireName());
                codec.setInstant(ps, 2, now);
                ps.setString(3, decision.decidedBy());
                ps.setString(4, decision.arguments());
                ps.setString(5, decision.comment());
                ps.setString(6, callId);
                codec.setInstant(ps, 7, now);
                changed = ps.executeUpdate();
            }
            if (changed == 0) return new NotPending(current.get());
            List<ToolApproval> ofTurn = ofTurn(c, turnId);
            ToolApproval decided = ofTurn.stream()
                    .filter(a -> a.callId().equals(callId))
                    .findFirst()
                    .orElseThrow();
            List<ToolApproval> stillPending =
                    ofTurn.stream().filter(ToolApproval::isPending).toList();
            if (!stillPending.isEmpty()) return new Waiting(decided, stillPending);
            endTurn(c, turnId, PausedTurn.Status.RESUMED, now);
            claim(c, turnId, Ids.newId(), claimUntil);
            return new Resumable(turn(c, turnId), ofTurn);
        });
    }

    @Override
    public Optional<PausedTurn> turn(String tenantId, String userId, String turnId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + TURN_COLUMNS + CLAIM_COLUMNS
                    + " FROM paused_turns WHERE turn_id = ? AND tenant_id = ? AND user_id = ?")) {
                ps.setString(1, turnId);
                ps.setString(2, tenantId);
                ps.setString(3, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rows.turn(rs)) : Optional.<PausedTurn>empty();
                }
            }
        });
    }

    @Override
    public Optional<Resumable> reclaim(String turnId, Instant now, Instant claimUntil) {
        return db.inTransaction(c -> {
            // conditional: of two instances taking the turn over at once, one changes the row
            try (PreparedStatement ps = c.prepareStatement("UPDATE paused_turns SET claim_id = ?, claimed_until = ?"
                    + " WHERE turn_id = ? AND status = '" + RESUMED + "' AND claimed_until IS NOT NULL"
                    + " AND claimed_until <= ?")) {
                ps.setString(1, Ids.newId());
                codec.setInstant(ps, 2, claimUntil);
                ps.setString(3, turnId);
                codec.setInstant(ps, 4, now);
                if (ps.executeUpdate() == 0) return Optional.<Resumable>empty();
            }
            Set<String> started = new HashSet<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id FROM tool_approvals WHERE turn_id = ? AND run_started_at IS NOT NULL")) {
                ps.setString(1, turnId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) started.add(rs.getString(1));
                }
            }
            return Optional.of(new Resumable(turn(c, turnId), ofTurn(c, turnId), started));
        });
    }

    @Override
    public List<PausedTurn> abandoned(Instant now, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + TURN_COLUMNS + CLAIM_COLUMNS
                    + " FROM paused_turns WHERE status = '" + RESUMED + "' AND claimed_until <= ? AND expires_at <= ?"
                    + " ORDER BY claimed_until LIMIT ?")) {
                codec.setInstant(ps, 1, now);
                codec.setInstant(ps, 2, now);
                ps.setInt(3, limit);
                List<PausedTurn> found = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) found.add(rows.turn(rs));
                }
                return found;
            }
        });
    }

    @Override
    public void runStarting(String turnId, List<String> callIds, Instant now) {
        if (callIds.isEmpty()) return;
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE tool_approvals SET run_started_at = ?"
                    + " WHERE turn_id = ? AND id = ? AND run_started_at IS NULL")) {
                for (String id : callIds) {
                    codec.setInstant(ps, 1, now);
                    ps.setString(2, turnId);
                    ps.setString(3, id);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    @Override
    public void finish(String turnId, String claimId) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE paused_turns SET claimed_until = NULL WHERE turn_id = ? AND claim_id = ?")) {
                ps.setString(1, turnId);
                ps.setString(2, claimId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    private void claim(Connection c, String turnId, String claimId, Instant until) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE paused_turns SET claim_id = ?, claimed_until = ? WHERE turn_id = ?")) {
            ps.setString(1, claimId);
            codec.setInstant(ps, 2, until);
            ps.setString(3, turnId);
            ps.executeUpdate();
        }
    }

    @Override
    public Optional<Closed> close(String turnId, ApprovalStatus status, String decidedBy, String comment, Instant now) {
        return db.inTransaction(c -> {
            if (!endTurn(c, turnId, PausedTurn.Status.CLOSED, now)) return Optional.<Closed>empty();
            try (PreparedStatement ps = c.prepareStatement("UPDATE tool_approvals SET status = ?, decided_at = ?,"
                    + " decided_by = ?, comment = ? WHERE turn_id = ? AND status = '" + PENDING + "'")) {
                ps.setString(1, status.wireName());
                codec.setInstant(ps, 2, now);
                ps.setString(3, decidedBy);
                ps.setString(4, comment);
                ps.setString(5, turnId);
                ps.executeUpdate();
            }
            return Optional.of(new Closed(turn(c, turnId), ofTurn(c, turnId)));
        });
    }

    @Override
    public List<PausedTurn> expired(Instant now, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT " + TURN_COLUMNS + CLAIM_COLUMNS + " FROM paused_turns"
                            + " WHERE status = '" + PAUSED + "' AND expires_at <= ? ORDER BY expires_at LIMIT ?")) {
                codec.setInstant(ps, 1, now);
                ps.setInt(2, limit);
                List<PausedTurn> found = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) found.add(rows.turn(rs));
                }
                return found;
            }
        });
    }

    @Override
    public List<ToolApproval> sessionApprovals(String tenantId, String sessionId) {
        return db.withConnection(c -> rows.calls(
                c,
                "SELECT " + CALL_COLUMNS + " FROM tool_approvals WHERE tenant_id = ? AND session_id = ?"
                        + " ORDER BY created_at, call_index",
                tenantId,
                sessionId));
    }

    /** Takes the paused turn's row lock (a no-op update); false when the turn is not paused any more. */
    private boolean touchPaused(Connection c, String turnId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE paused_turns SET status = status WHERE turn_id = ? AND status = '" + PAUSED + "'")) {
            ps.setString(1, turnId);
            return ps.executeUpdate() == 1;
        }
    }

    private boolean endTurn(Connection c, String turnId, PausedTurn.Status status, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE paused_turns SET status = ?, ended_at = ?"
                + " WHERE turn_id = ? AND status = '" + PAUSED + "'")) {
            ps.setString(1, status.wireName());
            codec.setInstant(ps, 2, now);
            ps.setString(3, turnId);
            return ps.executeUpdate() == 1;
        }
    }

    private PausedTurn turn(Connection c, String turnId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + TURN_COLUMNS + CLAIM_COLUMNS + " FROM paused_turns WHERE turn_id = ?")) {
            ps.setString(1, turnId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new IllegalStateException("paused turn " + turnId + " vanished");
                return rows.turn(rs);
            }
        }
    }

    private List<ToolApproval> ofTurn(Connection c, String turnId) throws SQLException {
        return rows.calls(
                c, "SELECT " + CALL_COLUMNS + " FROM tool_approvals WHERE turn_id = ? ORDER BY call_index", turnId);
    }
}
