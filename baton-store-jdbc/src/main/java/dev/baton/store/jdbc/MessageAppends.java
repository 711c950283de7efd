package dev.baton.store.jdbc;

import dev.baton.core.conversation.Message;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Adds a message to its user's session: bumps the session's counts and inserts the message with the new message count
 * as its seq. On PostgreSQL that is one statement, the UPDATE … RETURNING feeding the INSERT, so one round trip and,
 * outside a transaction, atomic by itself (see {@link Database#inOneStatement}); SQLite has no data-modifying
 * {@code WITH}, so there it is the two statements, in the caller's transaction.
 */
final class MessageAppends {
    private static final String POSTGRES_APPEND = postgresAppend(SessionRows.BUMP_COUNTS);
    /** The same, writing nothing while the session has a paused turn. */
    private static final String POSTGRES_APPEND_UNLESS_PAUSED = postgresAppend(SessionRows.BUMP_COUNTS_UNLESS_PAUSED);
    /** The same, as a part of a chain: it fails when the session is not the user's (see {@link StatementChain}). */
    private static final String POSTGRES_APPEND_CHECKED = "WITH s AS (" + SessionRows.BUMP_COUNTS + "),"
            + " m AS (INSERT INTO messages (id, session_id, user_id, seq, role, content, status, model, created_at)"
            + " SELECT ?, ?, ?, s.message_count, ?, ?, ?, ?, ? FROM s RETURNING seq)"
            + " SELECT max(seq), 1 / count(*) FROM m";

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
        return append(c, m, toolCalls, false);
    }

    /**
     * {@link #append(Connection, Message, int)}; with {@code unlessPaused}, nothing is written while the session has a
     * turn paused for approval, and {@link dev.baton.core.conversation.PausedTurnPendingException} is thrown.
     */
    Message append(Connection c, Message m, int toolCalls, boolean unlessPaused) throws SQLException {
        Instant activityAt = m.createdAt();
        if (dialect == Dialect.SQLITE) {
            long seq = sessions.bumpCounts(c, m.userId(), m.sessionId(), toolCalls, activityAt, unlessPaused);
            return messages.insert(c, m, seq);
        }
        try (PreparedStatement ps =
                c.prepareStatement(unlessPaused ? POSTGRES_APPEND_UNLESS_PAUSED : POSTGRES_APPEND)) {
            bindPostgres(ps, 1, m, toolCalls);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) return MessageRows.stored(m, rs.getLong(1));
            }
        }
        throw sessions.notBumped(c, m.userId(), m.sessionId(), unlessPaused);
    }

    private static String postgresAppend(String bumpCounts) {
        return "WITH s AS (" + bumpCounts + ")"
                + " INSERT INTO messages (id, session_id, user_id, seq, role, content, status, model, created_at)"
                + " SELECT ?, ?, ?, s.message_count, ?, ?, ?, ?, ? FROM s RETURNING seq";
    }

    /**
     * {@link #append} as a part of a PostgreSQL chain. A session that is not {@code m}'s user's fails the chain with
     * {@link StatementChain#EXPECTED_ROW_MISSING}.
     *
     * @return the message as a read would give it back, once the chain ran
     */
    Supplier<Message> appendIn(StatementChain chain, Message m, int toolCalls) {
        Message[] stored = new Message[1];
        chain.add(POSTGRES_APPEND_CHECKED, (ps, first) -> bindPostgres(ps, first, m, toolCalls), rs -> {
            rs.next();
            stored[0] = MessageRows.stored(m, rs.getLong(1));
        });
        return () -> {
            if (stored[0] == null) throw new IllegalStateException("the chain has not run");
            return stored[0];
        };
    }

    /** Binds the PostgreSQL append's parameters from {@code first} on; returns the index after them. */
    private int bindPostgres(PreparedStatement ps, int first, Message m, int toolCalls) throws SQLException {
        ps.setInt(first, toolCalls);
        codec.setInstant(ps, first + 1, m.createdAt());
        ps.setString(first + 2, m.sessionId());
        ps.setString(first + 3, m.userId());
        ps.setString(first + 4, m.id());
        ps.setString(first + 5, m.sessionId());
        ps.setString(first + 6, m.userId());
        messages.bindAfterSeq(ps, first + 7, MessageRows.stored(m, 0));
        return first + 12;
    }
}
