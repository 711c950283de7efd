package dev.baton.learning.store;

import dev.baton.learning.library.Granularity;
import dev.baton.learning.library.LibraryEntry;
import dev.baton.learning.library.LibraryRepository;
import dev.baton.learning.library.LibrarySeed;
import dev.baton.learning.library.TopicMatch;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import dev.baton.store.jdbc.OwnedRows.Param;
import dev.baton.store.jdbc.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The topic library in {@code learning_topics} and {@code learning_topic_terms}, searched with typo tolerance by the
 * database (see {@link TopicSearchSql}). One statement per search: the candidates, their scores, the best term per
 * entry and each entry's parents for its path.
 */
public final class JdbcLibraryRepository implements LibraryRepository {
    private final Database db;
    /** Where pg_trgm is installed (it may be outside the search path); null on SQLite. */
    private final String trgmSchema;

    public JdbcLibraryRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.trgmSchema = db.dialect() == Dialect.POSTGRESQL ? trgmSchema(db) : null;
    }

    @Override
    public List<TopicMatch> search(String normalizedQuery, double minScore, int limit) {
        TopicSearchSql dialect = TopicSearchSql.of(db, trgmSchema, normalizedQuery);
        String sql = dialect.withClause()
                + ", best AS (SELECT topic_id, term, score, ROW_NUMBER() OVER (PARTITION BY topic_id"
                + "   ORDER BY score DESC, length(term) DESC) AS rn FROM scored WHERE score >= ?)"
                + " SELECT t.id, t.granularity, t.name, t.parent_id, t.summary, p.name AS parent_name,"
                + "   g.name AS grandparent_name, b.term, b.score FROM best b"
                + " JOIN learning_topics t ON t.id = b.topic_id"
                + " LEFT JOIN learning_topics p ON p.id = t.parent_id"
                + " LEFT JOIN learning_topics g ON g.id = p.parent_id"
                + " WHERE b.rn = 1 ORDER BY b.score DESC, length(b.term) DESC, t.id LIMIT ?";
        List<Param> params = new ArrayList<>(dialect.params());
        params.add((ps, i) -> ps.setDouble(i, minScore));
        params.add(Sql.integer(limit));
        return Sql.list(db, sql, params, rs -> {
            List<String> path = new ArrayList<>();
            if (rs.getString("grandparent_name") != null) path.add(rs.getString("grandparent_name"));
            if (rs.getString("parent_name") != null) path.add(rs.getString("parent_name"));
            path.add(rs.getString("name"));
            LibraryEntry entry = new LibraryEntry(
                    rs.getString("id"),
                    Granularity.fromWireName(rs.getString("granularity")),
                    rs.getString("name"),
                    rs.getString("parent_id"),
                    rs.getString("summary"),
                    path);
            return new TopicMatch(entry, rs.getString("term"), Math.min(1.0, rs.getDouble("score")));
        });
    }

    @Override
    public void seed(List<LibrarySeed.Entry> entries) {
        db.inTransaction(c -> {
            // parents come before their children in a seed, so the foreign keys hold row by row
            for (LibrarySeed.Entry e : entries) {
                Sql.update(
                        c,
                        "INSERT INTO learning_topics (id, granularity, name, parent_id, summary) VALUES (?, ?, ?, ?, ?)"
                                + " ON CONFLICT (id) DO NOTHING",
                        List.of(
                                Param.text(e.id()),
                                Param.text(e.granularity().wireName()),
                                Param.text(e.name()),
                                Param.text(e.parentId()),
                                Param.text(e.summary())));
                for (String term : e.terms()) {
                    Sql.update(
                            c,
                            "INSERT INTO learning_topic_terms (topic_id, term) VALUES (?, ?)"
                                    + " ON CONFLICT (topic_id, term) DO NOTHING",
                            List.of(Param.text(e.id()), Param.text(term)));
                }
            }
            return null;
        });
    }

    @Override
    public boolean isEmpty() {
        return Sql.one(db, "SELECT 1 AS one FROM learning_topics LIMIT 1", List.of(), rs -> 1)
                .isEmpty();
    }

    private static String trgmSchema(Database db) {
        return Sql.one(
                        db,
                        "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
                                + " WHERE e.extname = 'pg_trgm'",
                        List.of(),
                        rs -> rs.getString(1))
                .orElseThrow(() -> new StoreException(
                        "the pg_trgm extension is not installed; the learning migrations install it (CREATE EXTENSION"
                                + " pg_trgm) and need a user allowed to"));
    }
}
