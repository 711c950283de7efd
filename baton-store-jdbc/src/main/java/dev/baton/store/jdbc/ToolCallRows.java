package dev.baton.store.jdbc;

import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** SQL for the {@code tool_calls} table. */
final class ToolCallRows {
    private static final String COLUMNS = "id, session_id, message_id, tool_name, tool_args, tool_result, state,"
            + " error_message, started_at, completed_at, duration_ms";
    /** A call's insert unless {@link #link} linked it: see {@link #linkOrInsertIn}. */
    private static final String INSERT_UNLESS_LINKED = "INSERT INTO tool_calls (" + COLUMNS + ")"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS"
            + " (SELECT 1 FROM tool_calls WHERE id = ? AND session_id = ? AND message_id = ?)";
    /** One call's insert if its session is the user's, failing when it is not: see {@link #insertOwnedIn}. */
    private static final String INSERT_OWNED_CHECKED = "WITH inserted AS (INSERT INTO tool_calls (" + COLUMNS + ")"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM sessions WHERE id = ? AND user_id = ? RETURNING 1)"
            + " SELECT 1 / count(*) FROM inserted";
    /** Keeps IN lists well under every driver's bind-parameter limit. */
    private static final int IDS_PER_QUERY = 500;

    private final ColumnCodec codec;

    ToolCallRows(ColumnCodec codec) {
        this.codec = codec;
    }

    void insertAll(Connection c, List<ToolCallRecord> calls) throws SQLException {
        if (calls.isEmpty()) return;
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO tool_calls (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (ToolCallRecord t : calls) {
                bind(ps, t);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * Inserts calls of a running turn, each only if its session is the user's: one statement for the batch, the
     * ownership check inside it.
     *
     * @throws SessionNotFoundException if a call's session is not the user's (nothing is inserted once the caller's
     *     transaction rolls back)
     */
    void insertOwned(Connection c, String userId, List<ToolCallRecord> calls) throws SQLException {
        if (calls.isEmpty()) return;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_calls (" + COLUMNS + ")"
                + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM sessions WHERE id = ? AND user_id = ?")) {
            for (ToolCallRecord t : calls) {
                bind(ps, t);
                ps.setString(12, t.sessionId());
                ps.setString(13, userId);
                ps.addBatch();
            }
            int[] inserted = ps.executeBatch();
            for (int i = 0; i < inserted.length; i++) {
                if (inserted[i] == 0)
                    throw new SessionNotFoundException(calls.get(i).sessionId());
            }
        }
    }

    /**
     * As {@link #insertOwned}, as the last statement of its transaction, followed by {@code commit}
     * ({@link Database#commitWithLastStatement()}): on PostgreSQL the COMMIT travels in the insert's round trip. A
     * session that is not the user's must then fail the statement, not insert nothing, or the COMMIT after it would
     * keep the rest of the transaction without its record: dividing by the count of rows inserted does that.
     *
     * @throws SessionNotFoundException if a call's session is not the user's (nothing is committed then)
     */
    void insertOwnedLast(Connection c, String userId, List<ToolCallRecord> calls, String commit) throws SQLException {
        if (commit.isEmpty() || calls.size() != 1) {
            insertOwned(c, userId, calls);
            return;
        }
        StatementChain chain = new StatementChain();
        insertOwnedIn(chain, userId, calls);
        try {
            chain.run(c, commit);
        } catch (StatementChain.CheckFailed e) {
            throw new SessionNotFoundException(calls.getFirst().sessionId());
        }
    }

    /**
     * {@link #insertOwned} as parts of a PostgreSQL chain, one per call: a call whose session is not the user's fails
     * the chain with {@link StatementChain#EXPECTED_ROW_MISSING} (dividing by the count of rows inserted), so a COMMIT
     * after it cannot keep the rest of the transaction without its record.
     */
    void insertOwnedIn(StatementChain chain, String userId, List<ToolCallRecord> calls) {
        for (ToolCallRecord call : calls) {
            chain.add(INSERT_OWNED_CHECKED, (ps, first) -> {
                bind(ps, first, call);
                ps.setString(first + 11, call.sessionId());
                ps.setString(first + 12, userId);
                return first + 13;
            });
        }
    }

    /**
     * Links the session's unlinked calls with the given ids to the message.
     *
     * @return the ids linked; the others are not in the table unlinked (never recorded, or linked elsewhere)
     */
    Set<String> link(Connection c, String sessionId, String messageId, List<String> ids) throws SQLException {
        Set<String> linked = new HashSet<>();
        for (int from = 0; from < ids.size(); from += IDS_PER_QUERY) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_QUERY));
            String placeholders = String.join(", ", Collections.nCopies(chunk.size(), "?"));
            // RETURNING: SQLite >= 3.35 and PostgreSQL
            try (PreparedStatement ps = c.prepareStatement("UPDATE tool_calls SET message_id = ?"
                    + " WHERE session_id = ? AND message_id IS NULL AND id IN (" + placeholders + ") RETURNING id")) {
                ps.setString(1, messageId);
                ps.setString(2, sessionId);
                for (int i = 0; i < chunk.size(); i++) ps.setString(3 + i, chunk.get(i));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) linked.add(rs.getString(1));
                }
            }
        }
        return linked;
    }

    /**
     * {@link #link} and the insert of the calls it did not link, as two parts of a PostgreSQL chain, with no result to
     * read in between: the UPDATE links the session's unlinked calls with these ids, then each call is inserted unless
     * that linked it. A call whose id is taken by another session's row, or by a row linked elsewhere, fails the chain
     * as a duplicate, as {@link #insertAll} after {@link #link} does. The ids must differ (a repeated one would be
     * inserted once by {@link #insertAll} and refused, but skipped here).
     *
     * @param calls the calls with {@code messageId} set, at most {@value #IDS_PER_QUERY}
     */
    void linkOrInsertIn(StatementChain chain, String sessionId, String messageId, List<ToolCallRecord> calls) {
        if (calls.isEmpty()) return;
        if (calls.size() > IDS_PER_QUERY) throw new IllegalArgumentException("more calls than one chain takes");
        String placeholders = String.join(", ", Collections.nCopies(calls.size(), "?"));
        chain.add(
                "UPDATE tool_calls SET message_id = ? WHERE session_id = ? AND message_id IS NULL AND id IN ("
                        + placeholders + ")",
                (ps, first) -> {
                    ps.setString(first, messageId);
                    ps.setString(first + 1, sessionId);
                    int next = first + 2;
                    for (ToolCallRecord t : calls) ps.setString(next++, t.id());
                    return next;
                });
        for (ToolCallRecord call : calls) {
            chain.add(INSERT_UNLESS_LINKED, (ps, first) -> {
                bind(ps, first, call);
                ps.setString(first + 11, call.id());
                ps.setString(first + 12, call.sessionId());
                ps.setString(first + 13, call.messageId());
                return first + 14;
            });
        }
    }

    private void bind(PreparedStatement ps, ToolCallRecord t) throws SQLException {
        bind(ps, 1, t);
    }

    /** Binds the call's columns from parameter {@code first} on (eleven of them). */
    private void bind(PreparedStatement ps, int first, ToolCallRecord t) throws SQLException {
        ps.setString(first, t.id());
        ps.setString(first + 1, t.sessionId());
        ps.setString(first + 2, t.messageId());
        ps.setString(first + 3, t.toolName());
        ps.setString(first + 4, t.toolArgs());
        ps.setString(first + 5, t.toolResult());
        ps.setString(first + 6, t.state().wireName());
        ps.setString(first + 7, t.errorMessage());
        codec.setInstant(ps, first + 8, t.startedAt());
        codec.setInstant(ps, first + 9, t.completedAt());
        ps.setLong(first + 10, t.durationMs());
    }

    /** Tool calls of the given messages in the user's session, in the order they started. */
    List<ToolCallRecord> ofMessages(Connection c, String userId, String sessionId, List<String> messageIds)
            throws SQLException {
        return matching(c, userId, sessionId, "t.message_id", messageIds);
    }

    /** The user's session's tool calls with these row ids, in the order they started. */
    List<ToolCallRecord> withIds(Connection c, String userId, String sessionId, List<String> ids) throws SQLException {
        return matching(c, userId, sessionId, "t.id", ids);
    }

    private List<ToolCallRecord> matching(
            Connection c, String userId, String sessionId, String column, List<String> messageIds) throws SQLException {
        List<ToolCallRecord> calls = new ArrayList<>();
        for (int from = 0; from < messageIds.size(); from += IDS_PER_QUERY) {
            List<String> chunk = messageIds.subList(from, Math.min(messageIds.size(), from + IDS_PER_QUERY));
            String placeholders = String.join(", ", Collections.nCopies(chunk.size(), "?"));
            String sql = "SELECT " + qualified() + " FROM tool_calls t JOIN sessions s ON s.id = t.session_id"
                    + " WHERE t.session_id = ? AND s.user_id = ? AND " + column + " IN (" + placeholders + ")";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, sessionId);
                ps.setString(2, userId);
                for (int i = 0; i < chunk.size(); i++) ps.setString(3 + i, chunk.get(i));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) calls.add(read(rs));
                }
            }
        }
        calls.sort(java.util.Comparator.comparing(ToolCallRecord::startedAt).thenComparing(ToolCallRecord::id));
        return calls;
    }

    private static String qualified() {
        return "t." + COLUMNS.replace(", ", ", t.");
    }

    private ToolCallRecord read(ResultSet rs) throws SQLException {
        return new ToolCallRecord(
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
                rs.getLong("duration_ms"));
    }
}
