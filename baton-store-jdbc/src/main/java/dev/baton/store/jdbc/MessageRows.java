package dev.baton.store.jdbc;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** SQL for the {@code messages} table. */
final class MessageRows {
    private static final String COLUMNS = "id, session_id, user_id, seq, role, content, status, model, created_at";

    private final ColumnCodec codec;

    MessageRows(ColumnCodec codec) {
        this.codec = codec;
    }

    /** Inserts the message with the given seq and returns it as a read would. */
    Message insert(Connection c, Message m, long seq) throws SQLException {
        Message stored = stored(m, seq);
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO messages (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, stored.id());
            ps.setString(2, stored.sessionId());
            ps.setString(3, stored.userId());
            ps.setLong(4, stored.seq());
            bindAfterSeq(ps, 5, stored);
            ps.executeUpdate();
        }
        return stored;
    }

    /** The message as a read gives it back once stored with {@code seq}. */
    static Message stored(Message m, long seq) {
        return new Message(
                m.id(),
                m.sessionId(),
                m.userId(),
                seq,
                m.role(),
                m.content(),
                m.status(),
                m.model(),
                ColumnCodec.truncate(m.createdAt()));
    }

    /** Binds the columns after seq (role, content, status, model, created_at) from parameter {@code first} on. */
    void bindAfterSeq(PreparedStatement ps, int first, Message m) throws SQLException {
        ps.setString(first, m.role().wireName());
        ps.setString(first + 1, m.content());
        ps.setString(first + 2, m.status().wireName());
        ps.setString(first + 3, m.model());
        codec.setInstant(ps, first + 4, m.createdAt());
    }

    /**
     * The newest {@code limit} messages of the user's session with seq below {@code beforeSeq} (all when null),
     * oldest first.
     *
     * <p>A session's seqs are dense, 1 up to its message count (each message takes the count its append made; only
     * whole sessions are deleted), so the newest {@code limit} are the seqs in one range, which the query bounds
     * explicitly: {@code (message_count - limit, message_count]}, or {@code [beforeSeq - limit, beforeSeq)}. The
     * (session_id, seq) index then reads at most {@code limit} rows whatever plan the database picks. Without the
     * bound, PostgreSQL's generic plan for the server-prepared statement, made from statistics that do not know the
     * session is long (tables not analysed yet), read every message of the session and sorted them: a turn that cost
     * more the longer its conversation.
     */
    List<Message> newest(Connection c, String userId, String sessionId, Long beforeSeq, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(newestSql(beforeSeq != null))) {
            int i = 1;
            ps.setString(i++, sessionId);
            ps.setString(i++, userId);
            if (beforeSeq == null) {
                ps.setString(i++, sessionId);
                ps.setInt(i++, limit);
            } else {
                ps.setLong(i++, beforeSeq);
                ps.setLong(i++, beforeSeq - limit);
            }
            ps.setInt(i, limit);
            List<Message> newestFirst = new ArrayList<>(limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) newestFirst.add(read(rs));
            }
            Collections.reverse(newestFirst);
            return newestFirst;
        }
    }

    /** The query of {@link #newest}: parameters session, user, then session and limit, or beforeSeq twice; limit. */
    static String newestSql(boolean before) {
        return "SELECT " + COLUMNS + " FROM messages WHERE session_id = ? AND user_id = ?"
                + (before
                        ? " AND seq < ? AND seq >= ?"
                        : " AND seq > (SELECT s.message_count FROM sessions s WHERE s.id = ?) - ?")
                + " ORDER BY seq DESC LIMIT ?";
    }

    private Message read(ResultSet rs) throws SQLException {
        return new Message(
                rs.getString("id"),
                rs.getString("session_id"),
                rs.getString("user_id"),
                rs.getLong("seq"),
                MessageRole.fromWire(rs.getString("role")),
                rs.getString("content"),
                MessageStatus.fromWire(rs.getString("status")),
                rs.getString("model"),
                codec.getInstant(rs, "created_at"));
    }
}
