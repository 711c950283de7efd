package dev.baton.store.jdbc;

import dev.baton.core.conversation.PausedTurnPendingException;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.runtime.approval.PausedTurn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for the {@code sessions} table. */
final class SessionRows {
    static final String COLUMNS = "id, tenant_id, user_id, agent_id, assignment_id, state, started_at, ended_at,"
            + " last_activity_at, message_count, tool_call_count";
    /** What reads select: the written columns plus why the session ended. */
    static final String SELECT_COLUMNS = COLUMNS + ", end_reason";

    /**
     * Adds a message and some tool calls to a user's session and returns the new message count. Parameters: tool
     * calls, activity instant, session id, user id. (RETURNING: SQLite >= 3.35 and PostgreSQL.)
     */
    static final String BUMP_COUNTS = "UPDATE sessions SET message_count = message_count + 1,"
            + " tool_call_count = tool_call_count + ?, last_activity_at = ? WHERE id = ? AND user_id = ?"
            + " RETURNING message_count";
    /**
     * {@link #BUMP_COUNTS}, changing nothing while the session has a turn paused for approval (the approval store's
     * {@code paused_turns}, in the same database). Same parameters.
     */
    static final String BUMP_COUNTS_UNLESS_PAUSED = "UPDATE sessions SET message_count = message_count + 1,"
            + " tool_call_count = tool_call_count + ?, last_activity_at = ? WHERE id = ? AND user_id = ?"
            + " AND NOT EXISTS (SELECT 1 FROM paused_turns p WHERE p.session_id = sessions.id AND p.status = '"
            + PausedTurn.Status.PAUSED.wireName() + "') RETURNING message_count";

    private final ColumnCodec codec;

    SessionRows(ColumnCodec codec) {
        this.codec = codec;
    }

    void insert(Connection c, Session s) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO sessions (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, s.id());
            ps.setString(2, s.tenantId());
            ps.setString(3, s.userId());
            ps.setString(4, s.agentId());
            ps.setString(5, s.assignmentId());
            ps.setString(6, s.state().wireName());
            codec.setInstant(ps, 7, s.startedAt());
            codec.setInstant(ps, 8, s.endedAt());
            codec.setInstant(ps, 9, s.lastActivityAt());
            ps.setInt(10, s.messageCount());
            ps.setInt(11, s.toolCallCount());
            ps.executeUpdate();
        }
    }

    Optional<Session> find(Connection c, String userId, String sessionId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + SELECT_COLUMNS + " FROM sessions WHERE id = ? AND user_id = ?")) {
            ps.setString(1, sessionId);
            ps.setString(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    boolean exists(Connection c, String userId, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ? AND user_id = ?")) {
            ps.setString(1, sessionId);
            ps.setString(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Adds one message (and {@code toolCalls} tool calls) to the user's session and returns the new message
     * count, which is the seq of the added message. The row lock this update takes orders concurrent appends. With
     * {@code unlessPaused}, a session with a turn paused for approval is not changed.
     *
     * @throws SessionNotFoundException if the session is not the user's
     * @throws PausedTurnPendingException with {@code unlessPaused}, if the session has a paused turn
     */
    long bumpCounts(
            Connection c, String userId, String sessionId, int toolCalls, Instant activityAt, boolean unlessPaused)
            throws SQLException {
        // one statement: the bumped count is the new message's seq
        try (PreparedStatement ps = c.prepareStatement(unlessPaused ? BUMP_COUNTS_UNLESS_PAUSED : BUMP_COUNTS)) {
            ps.setInt(1, toolCalls);
            codec.setInstant(ps, 2, activityAt);
            ps.setString(3, sessionId);
            ps.setString(4, userId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) return rs.getLong(1);
            }
        }
        throw notBumped(c, userId, sessionId, unlessPaused);
    }

    /**
     * Why a bump changed nothing: the session is not the user's, or ({@code unlessPaused}) it has a paused turn. The
     * read that tells them apart runs only then, so the turns that do bump read nothing more.
     */
    RuntimeException notBumped(Connection c, String userId, String sessionId, boolean unlessPaused)
            throws SQLException {
        return unlessPaused && exists(c, userId, sessionId)
                ? new PausedTurnPendingException(sessionId)
                : new SessionNotFoundException(sessionId);
    }

    /**
     * A page of the user's sessions, newest first, filtered by {@code query}: one row more than the page when there
     * is a next one.
     */
    List<Session> page(Connection c, String userId, SessionQuery query, SessionCursor after) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT " + SELECT_COLUMNS + " FROM sessions WHERE user_id = ?");
        if (query.agentId() != null) sql.append(" AND agent_id = ?");
        if (query.state() != null) sql.append(" AND state = ?");
        if (after != null) sql.append(" AND (started_at < ? OR (started_at = ? AND id < ?))");
        sql.append(" ORDER BY started_at DESC, id DESC LIMIT ?");
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            ps.setString(i++, userId);
            if (query.agentId() != null) ps.setString(i++, query.agentId());
            if (query.state() != null) ps.setString(i++, query.state().wireName());
            if (after != null) {
                codec.setInstant(ps, i++, after.startedAt());
                codec.setInstant(ps, i++, after.startedAt());
                ps.setString(i++, after.id());
            }
            ps.setInt(i, query.limit() + 1); // one extra row tells whether there is a next page
            List<Session> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) rows.add(read(rs));
            }
            return rows;
        }
    }

    Session read(ResultSet rs) throws SQLException {
        return new Session(
                rs.getString("id"),
                rs.getString("tenant_id"),
                rs.getString("user_id"),
                rs.getString("agent_id"),
                rs.getString("assignment_id"),
                SessionState.fromWire(rs.getString("state")),
                codec.getInstant(rs, "started_at"),
                codec.getInstant(rs, "ended_at"),
                codec.getInstant(rs, "last_activity_at"),
                rs.getInt("message_count"),
                rs.getInt("tool_call_count"),
                rs.getString("end_reason"));
    }
}
