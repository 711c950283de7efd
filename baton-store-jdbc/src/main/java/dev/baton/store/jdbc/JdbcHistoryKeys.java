package dev.baton.store.jdbc;

import dev.baton.runtime.conversation.HistoryKeys;
import dev.baton.runtime.conversation.HistoryKeys.Position;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** {@link HistoryKeys} on SQLite or PostgreSQL: one {@code history_keys} row per (user, digest), the newest wins. */
public final class JdbcHistoryKeys implements HistoryKeys {
    private final Database db;
    private final ColumnCodec codec;

    public JdbcHistoryKeys(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public Optional<Position> find(String userId, String digest) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT session_id, seq FROM history_keys WHERE user_id = ? AND digest = ?")) {
                ps.setString(1, userId);
                ps.setString(2, digest);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.<Position>empty();
                    long seq = rs.getLong(2);
                    // wasNull speaks of the column read last
                    Long position = rs.wasNull() ? null : seq;
                    return Optional.of(new Position(rs.getString(1), position));
                }
            }
        });
    }

    @Override
    public void record(String userId, String digest, Position position, Instant at) {
        Objects.requireNonNull(position, "position");
        db.inOneStatement(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO history_keys (user_id, digest, session_id, seq, recorded_at) VALUES (?, ?, ?, ?, ?)"
                            + " ON CONFLICT (user_id, digest) DO UPDATE SET session_id = excluded.session_id,"
                            + " seq = excluded.seq, recorded_at = excluded.recorded_at")) {
                ps.setString(1, userId);
                ps.setString(2, digest);
                ps.setString(3, position.sessionId());
                if (position.seq() == null) ps.setNull(4, Types.BIGINT);
                else ps.setLong(4, position.seq());
                codec.setInstant(ps, 5, at);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public int deleteOlderThan(Instant cutoff) {
        return db.inOneStatement(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM history_keys WHERE recorded_at < ?")) {
                codec.setInstant(ps, 1, cutoff);
                return ps.executeUpdate();
            }
        });
    }
}
