package dev.baton.store.jdbc;

import dev.baton.core.conversation.Session;
import dev.baton.runtime.session.EndedSession;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.SessionTerms;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How sessions start and end: the terms a session starts under, and every way it is completed — by its user, by
 * reaching its message limit, by outliving its maximum duration, or by the inactivity sweep.
 *
 * <p>Each completion is one conditional {@code UPDATE … WHERE state = 'active' … RETURNING}: only the call that
 * actually changed the row gets the session back, so a session ends (and its end is reported) exactly once even
 * when several instances sweep the same database at the same time.
 */
public final class JdbcSessionLifecycle implements SessionLifecycleStore {

    /** The inactivity timeout of sessions stored before their terms were (DESIGN §8's default). */
    static final Duration DEFAULT_INACTIVITY = Duration.ofHours(24);

    private static final String RETURNING = " RETURNING " + SessionRows.SELECT_COLUMNS;

    private final Database db;
    private final ColumnCodec codec;
    private final SessionRows sessions;

    public JdbcSessionLifecycle(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
        this.sessions = new SessionRows(codec);
    }

    /** Stores a new session together with its terms, atomically. */
    @Override
    public void start(Session session, SessionTerms terms) {
        db.inTransaction(c -> {
            sessions.insert(c, session);
            try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET config_json = ?, max_messages = ?,"
                    + " expires_at = ?, inactivity_timeout_ms = ? WHERE id = ?")) {
                ps.setString(1, terms.configJson());
                if (terms.maxMessages() == null) ps.setNull(2, Types.INTEGER);
                else ps.setInt(2, terms.maxMessages());
                codec.setInstant(ps, 3, terms.expiresAt());
                ps.setLong(4, terms.inactivityTimeout().toMillis());
                ps.setString(5, session.id());
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** The terms the user's session started under; empty when it is not theirs. */
    @Override
    public Optional<SessionTerms> terms(String userId, String sessionId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT config_json, max_messages, expires_at,"
                    + " inactivity_timeout_ms FROM sessions WHERE id = ? AND user_id = ?")) {
                ps.setString(1, sessionId);
                ps.setString(2, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    int max = rs.getInt("max_messages");
                    Integer maxMessages = rs.wasNull() ? null : max;
                    long idle = rs.getLong("inactivity_timeout_ms");
                    Duration inactivity = rs.wasNull() ? DEFAULT_INACTIVITY : Duration.ofMillis(idle);
                    return Optional.of(new SessionTerms(
                            rs.getString("config_json"), maxMessages, codec.getInstant(rs, "expires_at"), inactivity));
                }
            }
        });
    }

    /** Completes the user's active session with {@code reason}; empty when it is not theirs or already completed. */
    @Override
    public Optional<EndedSession> complete(String userId, String sessionId, Instant now, String reason) {
        return completeOne(userId, sessionId, now, reason, "", List.of());
    }

    /** Completes the user's active session if its maximum duration has run out by {@code now}. */
    @Override
    public Optional<EndedSession> completeIfExpired(String userId, String sessionId, Instant now) {
        return completeOne(
                userId,
                sessionId,
                now,
                MAX_SESSION_DURATION,
                " AND expires_at IS NOT NULL AND expires_at <= ?",
                List.of((ps, i) -> codec.setInstant(ps, i, now)));
    }

    /**
     * Completes the user's active session if it holds as many user messages as its limit allows. The count is over
     * one session whose size the limit itself bounds.
     */
    @Override
    public Optional<EndedSession> completeIfMessagesReached(String userId, String sessionId, Instant now) {
        return completeOne(
                userId,
                sessionId,
                now,
                MAX_MESSAGES,
                " AND max_messages IS NOT NULL AND (SELECT COUNT(*) FROM messages m"
                        + " WHERE m.session_id = sessions.id AND m.role = 'user') >= max_messages",
                List.of());
    }

    /**
     * Completes up to {@code limit} active sessions that have been idle longer than their own inactivity timeout,
     * or whose maximum duration has run out, in one statement.
     *
     * @param shortestInactivityTimeout the shortest timeout any session may have: sessions active more recently
     *     than {@code now} minus it are never read, which keeps the scan on the (state, last_activity_at) index
     * @return the sessions this call completed (reason {@value #INACTIVITY} or {@value #MAX_SESSION_DURATION})
     */
    @Override
    public List<EndedSession> sweep(Instant now, Duration shortestInactivityTimeout, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1");
        Instant idleBefore = now.minus(shortestInactivityTimeout);
        boolean sqlite = db.dialect() == Dialect.SQLITE;
        String idleLongEnough = sqlite
                ? "(julianday(?) - julianday(last_activity_at)) * 86400000.0 >= COALESCE(inactivity_timeout_ms, ?)"
                : "last_activity_at + COALESCE(inactivity_timeout_ms, ?) * INTERVAL '1 millisecond' <= ?";
        // The batch is picked once (a materialised CTE: PostgreSQL may otherwise rescan a LIMITed IN-subquery and
        // update more than the batch); SKIP LOCKED lets a concurrent sweep on another instance take other rows.
        String sql = "WITH due AS " + (sqlite ? "" : "MATERIALIZED ") + "(SELECT id FROM sessions"
                + " WHERE state = 'active' AND ((last_activity_at <= ? AND " + idleLongEnough + ")"
                + " OR expires_at <= ?) LIMIT ?" + (sqlite ? "" : " FOR UPDATE SKIP LOCKED") + ")"
                + " UPDATE sessions SET state = 'completed', ended_at = ?, end_reason = CASE WHEN expires_at IS NOT"
                + " NULL AND expires_at <= ? THEN '" + MAX_SESSION_DURATION + "' ELSE '" + INACTIVITY + "' END"
                // "+state" keeps SQLite on the primary key here instead of scanning every active session
                + " WHERE " + (sqlite ? "+" : "") + "state = 'active' AND id IN (SELECT id FROM due)" + RETURNING;
        long defaultMs = DEFAULT_INACTIVITY.toMillis();
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 1;
                codec.setInstant(ps, i++, idleBefore);
                if (sqlite) {
                    codec.setInstant(ps, i++, now);
                    ps.setLong(i++, defaultMs);
                } else {
                    ps.setLong(i++, defaultMs);
                    codec.setInstant(ps, i++, now);
                }
                codec.setInstant(ps, i++, now);
                ps.setInt(i++, limit);
                codec.setInstant(ps, i++, now);
                codec.setInstant(ps, i, now);
                return readEnded(ps);
            }
        });
    }

    private Optional<EndedSession> completeOne(
            String userId, String sessionId, Instant now, String reason, String condition, List<Binder> extra) {
        String sql = "UPDATE sessions SET state = 'completed', ended_at = ?, end_reason = ?"
                + " WHERE id = ? AND user_id = ? AND state = 'active'" + condition + RETURNING;
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                codec.setInstant(ps, 1, now);
                ps.setString(2, reason);
                ps.setString(3, sessionId);
                ps.setString(4, userId);
                int i = 5;
                for (Binder b : extra) b.bind(ps, i++);
                List<EndedSession> ended = readEnded(ps);
                return ended.isEmpty() ? Optional.<EndedSession>empty() : Optional.of(ended.getFirst());
            }
        });
    }

    private List<EndedSession> readEnded(PreparedStatement ps) throws SQLException {
        List<EndedSession> ended = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) ended.add(new EndedSession(sessions.read(rs), rs.getString("end_reason")));
        }
        return ended;
    }

    /** Binds one parameter of a statement whose conditions vary. */
    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps, int index) throws SQLException;
    }
}
