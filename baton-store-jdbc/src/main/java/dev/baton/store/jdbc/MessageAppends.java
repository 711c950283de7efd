package dev.baton.store.jdbc;

import dev.baton.core.conversation.Message;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Adds a message to its user's session: bumps the session's counts and inserts the message with the new message count
 * as its seq. On PostgreSQL that is one statement, the UPDATE … RETURNING feeding the INSERT, so one round trip and,
 * outside a transaction, atomic by itself (see {@link Database#inOneStatement}); SQLite has no data-modifying
 * {@code WITH}, so there it is the two statements, in the caller's transaction.
 */
final class MessageAppends {
    private static final String POSTGRES_APPEND = "WITH s AS (" + SessionRows.BUMP_COUNTS + ")"
            + " INSERT INTO messages (id, session_id, user_id, seq, role, content, status, model, created_at)"
            + " SELECT ?, ?, ?, s.message_count, ?, ?, ?, ?, ? FROM s RETURNING seq";

    private final Dialect dialect;
    private final ColumnCodec codec;
    private final SessionRows sessions;
    private final MessageRows messages;

    MessageAppends(Dialect dialect, SessionRows sessions, MessageRows messages) {
        this.dialect = dialect;
        this.codec = ColumnCodec.of(dialect);
        this.sessions = sessions;
        this.messages = messages;
    }

    /**
     * Appends {@code m} to its session, counting {@code toolCalls} more tool calls, and returns it as a read would.
     *
     * @throws SessionNotFoundException if the session is not {@code m}'s user's; nothing is written then
     */
    Message append(Connection c, Message m, int toolCalls) throws SQLException {
        Instant activityAt = m.createdAt();
        if (dialect == Dialect.SQLITE) {
            long seq = sessions.bumpCounts(c, m.userId(), m.sessionId(), toolCalls, activityAt);
            return messages.insert(c, m, seq);
        }
        Message unnumbered = MessageRows.stored(m, 0);
        try (PreparedStatement ps = c.prepareStatement(POSTGRES_APPEND)) {
            ps.setInt(1, toolCalls);
            codec.setInstant(ps, 2, activityAt);
            ps.setString(3, m.sessionId());
            ps.setString(4, m.userId());
            ps.setString(5, m.id());
            ps.setString(6, m.sessionId());
            ps.setString(7, m.userId());
            messages.bindAfterSeq(ps, 8, unnumbered);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new SessionNotFoundException(m.sessionId());
                return MessageRows.stored(m, rs.getLong(1));
            }
        }
    }
}
