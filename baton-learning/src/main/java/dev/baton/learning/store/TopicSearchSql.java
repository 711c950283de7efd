package dev.baton.learning.store;

import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.util.List;

/**
 * The dialect's part of a library search: a {@code scored(topic_id, term, score)} CTE over the terms close to the
 * query, scored by the database. An exact term scores 1 and a term the query contains as whole words 0.9 on both;
 * otherwise:
 *
 * <ul>
 *   <li>SQLite: the FTS5 trigram index finds the terms sharing any of the query's trigrams (the query's trigrams are
 *       cut by a recursive CTE, in SQL), and the score is the Dice coefficient of the two trigram sets: twice the
 *       shared trigrams over the trigrams of both;
 *   <li>PostgreSQL: pg_trgm's {@code %} operator finds the candidates under the GIN trigram index and
 *       {@code similarity()} scores them (pg_trgm pads each word, so its scores differ a little from SQLite's).
 * </ul>
 *
 * @param withClause the CTEs, starting with {@code WITH RECURSIVE} and ending in {@code scored}
 * @param params what its placeholders stand for
 */
record TopicSearchSql(String withClause, List<Param> params) {

    /** Shorter queries have no trigram: only exact and whole-word matches can find them. */
    static final int MIN_TRIGRAM_QUERY = 3;

    static TopicSearchSql of(Database db, String trgmSchema, String query) {
        return db.dialect() == Dialect.SQLITE ? sqlite(query) : postgresql(trgmSchema, query);
    }

    private static TopicSearchSql sqlite(String query) {
        String fuzzy = query.length() < MIN_TRIGRAM_QUERY
                ? ""
                : " UNION SELECT rowid FROM learning_topic_terms_fts WHERE learning_topic_terms_fts MATCH"
                        + " (SELECT group_concat('\"' || replace(g, '\"', '\"\"') || '\"', ' OR ') FROM dg)";
        String with = "WITH RECURSIVE q(text) AS (SELECT ?),"
                + " grams(i, g) AS (SELECT 1, substr(text, 1, 3) FROM q WHERE length(text) >= 3"
                + "   UNION ALL SELECT i + 1, substr((SELECT text FROM q), i + 1, 3) FROM grams"
                + "   WHERE i + 3 <= length((SELECT text FROM q))),"
                + " dg(g) AS (SELECT DISTINCT g FROM grams),"
                + " candidates(id) AS (SELECT id FROM learning_topic_terms WHERE term = (SELECT text FROM q)"
                + "   OR instr(' ' || (SELECT text FROM q) || ' ', ' ' || term || ' ') > 0" + fuzzy + "),"
                + " scored(topic_id, term, score) AS (SELECT t.topic_id, t.term, CASE"
                + "   WHEN t.term = (SELECT text FROM q) THEN 1.0"
                + "   WHEN instr(' ' || (SELECT text FROM q) || ' ', ' ' || t.term || ' ') > 0 THEN 0.9"
                + "   ELSE 2.0 * (SELECT count(*) FROM dg WHERE instr(t.term, dg.g) > 0)"
                + "     / ((SELECT count(*) FROM dg) + max(length(t.term) - 2, 1)) END"
                + "   FROM learning_topic_terms t WHERE t.id IN (SELECT id FROM candidates))";
        return new TopicSearchSql(with, List.of(Param.text(query)));
    }

    private static TopicSearchSql postgresql(String schema, String query) {
        String s = quoted(schema);
        String with = "WITH RECURSIVE scored(topic_id, term, score) AS (SELECT topic_id, term, CASE"
                + "   WHEN term = ? THEN 1.0"
                + "   WHEN strpos(' ' || ? || ' ', ' ' || term || ' ') > 0 THEN 0.9"
                + "   ELSE " + s + ".similarity(term, ?) END"
                + "   FROM learning_topic_terms"
                + "   WHERE term OPERATOR(" + s
                + ".%) ? OR term = ? OR strpos(' ' || ? || ' ', ' ' || term || ' ') > 0)";
        Param q = Param.text(query);
        return new TopicSearchSql(with, List.of(q, q, q, q, q, q));
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
