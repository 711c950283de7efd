package dev.baton.store.jdbc;

import dev.baton.core.conversation.IdempotencyStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** {@link IdempotencyStore} on SQLite or PostgreSQL: one row per (user, key), first claim or save wins. */
public final class JdbcIdempotencyStore implements IdempotencyStore {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(JdbcIdempotencyStore.class);
    private final Database db;
    private final ColumnCodec codec;

    public JdbcIdempotencyStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public Optional<StoredResponse> find(String userId, String key) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT request_hash, status, response, created_at FROM idempotency_keys WHERE user_id = ? AND \"key\" = ?")) {
                ps.setString(1, userId);
                ps.setString(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    return Optional.of(new StoredResponse(
                            rs.getString("request_hash"),
                            rs.getInt("status"),
                            rs.getString("response"),
                            codec.getInstant(rs, "created_at")));
                }
            }
        });
    }

    @Override
    public boolean save(String userId, String key, StoredResponse response) {
        Objects.requireNonNull(response.requestHash(), "requestHash");
        Objects.requireNonNull(response.createdAt(), "createdAt");
        return db.inSharedTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO idempotency_keys (user_id, \"key\", request_hash, status, response, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, \"key\") DO NOTHING")) {
                ps.setString(1, userId);
                ps.setString(2, key);
                ps.setString(3, response.requestHash());
                ps.setInt(4, response.status());
                ps.setString(5, response.body());
                codec.setInstant(ps, 6, response.createdAt());
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public boolean claim(String userId, String key, String requestHash, Instant now, Instant staleBefore) {
        if (claim(userId, key, requestHash, now)) return true;
        // a claim whose lease ran out belongs to a request that can no longer be running: take it over
        int taken = db.inSharedTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE idempotency_keys SET created_at = ?"
                    + " WHERE user_id = ? AND \"key\" = ? AND status = " + IN_PROGRESS
                    + " AND request_hash = ? AND created_at < ?")) {
                codec.setInstant(ps, 1, now);
                ps.setString(2, userId);
                ps.setString(3, key);
                ps.setString(4, requestHash);
                codec.setInstant(ps, 5, staleBefore);
                return ps.executeUpdate();
            }
        });
        if (taken == 1) {
            log.warn(
                    "idempotency key claimed before {} was never settled (its instance stopped); taken over",
                    staleBefore);
        }
        return taken == 1;
    }

    @Override
    public void complete(String userId, String key, int status, String body) {
        db.inSharedTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE idempotency_keys SET status = ?, response = ?"
                    + " WHERE user_id = ? AND \"key\" = ? AND status = " + IN_PROGRESS)) {
                ps.setInt(1, status);
                ps.setString(2, body);
                ps.setString(3, userId);
                ps.setString(4, key);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void release(String userId, String key) {
        db.inSharedTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM idempotency_keys WHERE user_id = ? AND \"key\" = ? AND status = " + IN_PROGRESS)) {
                ps.setString(1, userId);
                ps.setString(2, key);
                return ps.executeUpdate();
            }
        });
    }

    /** Forgets responses stored before the cutoff (keys are only worth keeping for a day or so). Returns how many. */
    @Override
    public int deleteOlderThan(Instant cutoff) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM idempotency_keys WHERE created_at < ?")) {
                codec.setInstant(ps, 1, cutoff);
                return ps.executeUpdate();
            }
        });
    }
}
