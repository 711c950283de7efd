package dev.baton.store.jdbc;

import dev.baton.runtime.session.ConversationSearch;
import dev.baton.runtime.session.SearchHit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Full-text search over one user's own conversations, with the database's own engine: SQLite FTS5 (porter
 * stemming; indexed in batches, brought up to date before each search, see {@link SqliteSearchIndex}) or PostgreSQL
 * {@code tsvector} under a GIN index ({@code english} configuration).
 *
 * <p>The words searched for are taken from the query as plain words and all must occur (AND); operators and
 * quotes in the query have no special meaning, so neither a user nor a model can write a query that escapes the
 * owner filter or fails to parse. Every statement filters by tenant and user.
 */
public final class JdbcConversationSearch implements ConversationSearch {

    private final Database db;
    private final ColumnCodec codec;

    public JdbcConversationSearch(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    /** The plain words of a query, lower-cased, at most {@value #MAX_TERMS}; empty when it has none. */
    public static List<String> terms(String query) {
        return ConversationSearch.terms(query);
    }

    /**
     * The user's conversations whose messages contain every word of {@code query}, best match first, one hit per
     * conversation.
     *
     * @param excludeSessionId a session to leave out (the one asking); null leaves none out
     * @param limit at most this many conversations, 1..50
     */
    @Override
    public List<SearchHit> search(String tenantId, String userId, String query, String excludeSessionId, int limit) {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        if (limit < 1 || limit > 50) throw new IllegalArgumentException("limit must be 1..50");
        List<String> terms = terms(query);
        if (terms.isEmpty()) return List.of();
        boolean sqlite = db.dialect() == Dialect.SQLITE;
        // SQLite indexes messages in batches: first the ones stored since the last, so none is missed
        SqliteSearchIndex.catchUp(db);
        String sql = sqlite ? SQLITE : POSTGRESQL;
        String match =
                sqlite ? String.join(" ", terms.stream().map(t -> '"' + t + '"').toList()) : String.join(" ", terms);
        // several messages of one conversation may match: read a few more rows, keep the best per conversation
        int rows = Math.min(limit * 4, 200);
        Map<String, SearchHit> bySession = new LinkedHashMap<>();
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, match);
                ps.setString(2, userId);
                ps.setString(3, tenantId);
                ps.setString(4, excludeSessionId == null ? "" : excludeSessionId);
                ps.setInt(5, rows);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next() && bySession.size() < limit) {
                        bySession.putIfAbsent(
                                rs.getString("session_id"),
                                new SearchHit(
                                        rs.getString("session_id"),
                                        rs.getString("agent_id"),
                                        codec.getInstant(rs, "started_at"),
                                        rs.getString("snippet")));
                    }
                }
            }
            return null;
        });
        return List.copyOf(bySession.values());
    }

    private static final String SQLITE = "SELECT m.session_id, s.agent_id, s.started_at,"
            + " snippet(messages_fts, 0, '', '', '…', 16) AS snippet"
            + " FROM messages_fts JOIN messages m ON m.id = messages_fts.message_id"
            + " JOIN sessions s ON s.id = m.session_id"
            + " WHERE messages_fts MATCH ? AND m.user_id = ? AND s.tenant_id = ? AND m.session_id <> ?"
            + " ORDER BY messages_fts.rank LIMIT ?";

    private static final String POSTGRESQL = "SELECT m.session_id, s.agent_id, s.started_at,"
            + " ts_headline('english', m.content, q, 'MaxWords=24, MinWords=8, StartSel=\"\", StopSel=\"\"')"
            + " AS snippet"
            + " FROM messages m JOIN sessions s ON s.id = m.session_id, plainto_tsquery('english', ?) q"
            + " WHERE m.content_tsv @@ q AND m.user_id = ? AND s.tenant_id = ? AND m.session_id <> ?"
            + " ORDER BY ts_rank(m.content_tsv, q) DESC, m.created_at DESC LIMIT ?";
}
