package dev.baton.store.jdbc;

import dev.baton.runtime.approval.ApprovalStatus;
import dev.baton.runtime.approval.PausedTurn;
import dev.baton.runtime.approval.ToolApproval;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The columns of {@code paused_turns} and {@code tool_approvals} and the mapping between their rows and
 * {@link PausedTurn} / {@link ToolApproval}, for {@link JdbcApprovalStore}: the SQL that decides lives there, the
 * binding and reading of rows here.
 */
final class ApprovalRows {
    static final String TURN_COLUMNS =
            "turn_id, tenant_id, user_id, session_id, request_id, state_json, status, paused_at, expires_at";
    static final String CLAIM_COLUMNS = ", claim_id, claimed_until";
    static final String CALL_COLUMNS = "id, turn_id, call_index, tenant_id, user_id, session_id,"
            + " tool_call_id, tool_name, arguments, reason, status, created_at, expires_at, decided_at, decided_by,"
            + " decided_arguments, comment, summary";

    private final ColumnCodec codec;

    ApprovalRows(ColumnCodec codec) {
        this.codec = codec;
    }

    Optional<ToolApproval> one(Connection c, String sql, String... params) throws SQLException {
        List<ToolApproval> found = calls(c, sql, params);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    List<ToolApproval> calls(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) ps.setString(i + 1, params[i]);
            List<ToolApproval> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) found.add(call(rs));
            }
            return found;
        }
    }

    void bind(PreparedStatement ps, ToolApproval a) throws SQLException {
        ps.setString(1, a.callId());
        ps.setString(2, a.turnId());
        ps.setInt(3, a.position());
        ps.setString(4, a.tenantId());
        ps.setString(5, a.userId());
        ps.setString(6, a.sessionId());
        ps.setString(7, a.toolCallId());
        ps.setString(8, a.toolName());
        ps.setString(9, a.arguments());
        ps.setString(10, a.reason());
        ps.setString(11, a.status().wireName());
        codec.setInstant(ps, 12, a.createdAt());
        codec.setInstant(ps, 13, a.expiresAt());
        codec.setInstant(ps, 14, a.decidedAt());
        ps.setString(15, a.decidedBy());
        ps.setString(16, a.decidedArguments());
        ps.setString(17, a.comment());
        ps.setString(18, a.summary());
    }

    ToolApproval call(ResultSet rs) throws SQLException {
        return new ToolApproval(
                rs.getString("id"),
                rs.getString("turn_id"),
                rs.getInt("call_index"),
                rs.getString("tenant_id"),
                rs.getString("user_id"),
                rs.getString("session_id"),
                rs.getString("tool_call_id"),
                rs.getString("tool_name"),
                rs.getString("arguments"),
                rs.getString("reason"),
                rs.getString("summary"),
                ApprovalStatus.fromWire(rs.getString("status")),
                codec.getInstant(rs, "created_at"),
                codec.getInstant(rs, "expires_at"),
                codec.getInstant(rs, "decided_at"),
                rs.getString("decided_by"),
                rs.getString("decided_arguments"),
                rs.getString("comment"));
    }

    PausedTurn turn(ResultSet rs) throws SQLException {
        return new PausedTurn(
                rs.getString("turn_id"),
                rs.getString("tenant_id"),
                rs.getString("user_id"),
                rs.getString("session_id"),
                rs.getString("request_id"),
                rs.getString("state_json"),
                PausedTurn.Status.fromWire(rs.getString("status")),
                codec.getInstant(rs, "paused_at"),
                codec.getInstant(rs, "expires_at"),
                rs.getString("claim_id"),
                codec.getInstant(rs, "claimed_until"));
    }
}
