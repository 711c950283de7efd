package dev.baton.store.jdbc;

import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/** Reads the contracts need behind the store's back: rows its port has no query for. */
final class StoredRows {
    private StoredRows() {}

    /** Every tool_calls row of the session, linked or not, oldest first. */
    static List<ToolCallRecord> toolCalls(Database db, String sessionId) {
        ColumnCodec codec = db.columns();
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, session_id, message_id, tool_name, tool_args,"
                    + " tool_result, state, error_message, started_at, completed_at, duration_ms FROM tool_calls"
                    + " WHERE session_id = ? ORDER BY started_at, id")) {
                ps.setString(1, sessionId);
                List<ToolCallRecord> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new ToolCallRecord(
                                rs.getString("id"),
                                rs.getString("session_id"),
                                rs.getString("message_id"),
                                rs.getString("tool_name"),
                                rs.getString("tool_args"),
                                rs.getString("tool_result"),
                                ToolCallState.fromWire(rs.getString("state")),
                                rs.getString("error_message"),
                                codec.getInstant(rs, "started_at"),
                                codec.getInstant(rs, "completed_at"),
                                rs.getLong("duration_ms")));
                    }
                }
                return rows;
            }
        });
    }

    /** The cost of every ai_usage row of the session. */
    static List<BigDecimal> usageCosts(Database db, String sessionId) {
        ColumnCodec codec = db.columns();
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT cost_usd FROM ai_usage WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                List<BigDecimal> costs = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) costs.add(codec.getDecimal(rs, "cost_usd"));
                }
                return costs;
            }
        });
    }

    static long count(Database db, String sql, String param) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, param);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }
}
