package dev.baton.store.jdbc;

import dev.baton.runtime.job.RepeatingJob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQLite's full-text index of messages ({@code messages_fts}), filled in batches rather than in each message's own
 * transaction: FTS5 writes a new index segment for every transaction that changes it, which cost a message's commit
 * about as much CPU again as the rest of it. A batch indexes every message whose rowid is above the index's highest
 * (SQLite assigns rowids in commit order, one writer at a time, and a deleted message's row leaves the index with it,
 * so nothing is skipped). {@link JdbcConversationSearch} catches up before every search, so a search sees every
 * message stored before it; the job {@link #start}ed keeps the backlog small between searches. On PostgreSQL
 * (a generated tsvector column) there is nothing to do.
 */
public final class SqliteSearchIndex {
    private static final Logger log = LoggerFactory.getLogger(SqliteSearchIndex.class);

    /** Messages per write transaction, so catching up after a long pause never holds the write lock for long. */
    static final int BATCH = 1_000;

    private static final String BEHIND = "SELECT (SELECT coalesce(max(rowid), 0) FROM messages)"
            + " > (SELECT coalesce(max(rowid), 0) FROM messages_fts)";
    private static final String INDEX = "INSERT INTO messages_fts (rowid, content, message_id)"
            + " SELECT rowid, content, id FROM messages"
            + " WHERE rowid > (SELECT coalesce(max(rowid), 0) FROM messages_fts) ORDER BY rowid LIMIT ?";

    private SqliteSearchIndex() {}

    /**
     * Indexes every message stored so far that is not indexed yet, in transactions of at most {@value #BATCH}.
     *
     * @return how many messages it indexed; 0 on PostgreSQL
     */
    public static int catchUp(Database db) {
        if (db.dialect() != Dialect.SQLITE || !db.withConnection(SqliteSearchIndex::behind)) return 0;
        int total = 0;
        int indexed;
        do {
            indexed = db.inTransaction(c -> {
                try (PreparedStatement ps = c.prepareStatement(INDEX)) {
                    ps.setInt(1, BATCH);
                    return ps.executeUpdate();
                }
            });
            total += indexed;
        } while (indexed == BATCH);
        return total;
    }

    /** Catches up every {@code every} on a thread of its own until closed; on PostgreSQL it does nothing. */
    public static RepeatingJob start(Database db, Duration every) {
        Objects.requireNonNull(db, "db");
        // the database briefly away: the next tick, or the next search, catches up
        return RepeatingJob.start(
                "search-index",
                db.dialect() == Dialect.SQLITE ? every : Duration.ZERO,
                () -> catchUp(db),
                log,
                "search index not brought up to date");
    }

    private static boolean behind(java.sql.Connection c) throws java.sql.SQLException {
        try (PreparedStatement ps = c.prepareStatement(BEHIND);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
