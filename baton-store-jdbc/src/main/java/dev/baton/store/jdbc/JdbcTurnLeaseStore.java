package dev.baton.store.jdbc;

import dev.baton.core.conversation.TurnFence;
import dev.baton.runtime.durable.InstanceIdentity;
import dev.baton.runtime.durable.LeasedTurn;
import dev.baton.runtime.durable.TurnLeaseStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@link TurnLeaseStore} on SQLite or PostgreSQL ({@code running_turns}). A takeover is a conditional update on the
 * row's epoch and lease: of two instances taking the same turn over, one changes the row. The turn's own writes
 * (checkpoints, the answer that ends the lease) are made by {@link JdbcConversationStore} in the turn's transactions.
 */
public final class JdbcTurnLeaseStore implements TurnLeaseStore {
    private static final String COLUMNS = "turn_id, epoch, tenant_id, user_id, session_id, request_id, agent_id,"
            + " principal_json, instance_id, boot_id, leased_until, started_at, state_json, idempotency_owner,"
            + " idempotency_key";

    private final Database db;
    private final ColumnCodec codec;

    public JdbcTurnLeaseStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public void open(LeasedTurn turn) {
        db.inSharedStatement(c -> insert(c, turn));
    }

    /**
     * The work of {@code first} (the conversation store's, on the same {@link Database}) joins this transaction, so
     * the turn's user message and its lease commit together. The transaction may be shared with other turns'
     * writes ({@link Database#inSharedTransaction}), so {@code first} may run on another thread: it must be the
     * store's writes only.
     */
    @Override
    public <T> T openAfter(Supplier<T> first, LeasedTurn turn) {
        return db.inSharedTransaction(c -> {
            T result = first.get();
            // last: on PostgreSQL the COMMIT travels with it (an INSERT … VALUES inserts its row or fails)
            insert(c, turn, db.commitWithLastStatement());
            return result;
        });
    }

    private Void insert(Connection c, LeasedTurn turn) throws SQLException {
        return insert(c, turn, "");
    }

    private Void insert(Connection c, LeasedTurn turn, String commit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO running_turns (" + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" + commit)) {
            ps.setString(1, turn.turnId());
            ps.setLong(2, turn.epoch());
            ps.setString(3, turn.tenantId());
            ps.setString(4, turn.userId());
            ps.setString(5, turn.sessionId());
            ps.setString(6, turn.requestId());
            ps.setString(7, turn.agentId());
            ps.setString(8, turn.principal());
            ps.setString(9, turn.owner().instanceId());
            ps.setString(10, turn.owner().bootId());
            codec.setInstant(ps, 11, turn.leasedUntil());
            codec.setInstant(ps, 12, turn.startedAt());
            ps.setString(13, turn.state());
            ps.setString(14, turn.idempotencyOwner());
            ps.setString(15, turn.idempotencyKey());
            ps.executeUpdate();
        }
        return null;
    }

    @Override
    public Set<TurnFence> renew(InstanceIdentity owner, Collection<TurnFence> held, Instant until) {
        if (held.isEmpty()) return Set.of();
        List<TurnFence> fences = List.copyOf(held);
        return db.inTransaction(c -> {
            Set<TurnFence> still = new HashSet<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE running_turns SET leased_until = ?" + " WHERE turn_id = ? AND epoch = ? AND boot_id = ?")) {
                for (TurnFence f : fences) {
                    codec.setInstant(ps, 1, until);
                    ps.setString(2, f.turnId());
                    ps.setLong(3, f.epoch());
                    ps.setString(4, owner.bootId());
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                for (int i = 0; i < counts.length; i++) {
                    // SUCCESS_NO_INFO (-2) is a row changed whose count the driver did not report
                    if (counts[i] > 0 || counts[i] == java.sql.Statement.SUCCESS_NO_INFO) still.add(fences.get(i));
                }
            }
            return still;
        });
    }

    @Override
    public boolean close(TurnFence fence) {
        return db.inSharedStatement(c -> RunningTurnRows.delete(c, fence));
    }

    @Override
    public int expireEarlierBoots(InstanceIdentity current, Instant now) {
        return db.inOneStatement(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE running_turns SET leased_until = ?"
                    + " WHERE instance_id = ? AND boot_id <> ? AND leased_until > ?")) {
                codec.setInstant(ps, 1, now);
                ps.setString(2, current.instanceId());
                ps.setString(3, current.bootId());
                codec.setInstant(ps, 4, now);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Optional<LeasedTurn> byIdempotencyKey(String owner, String key) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM running_turns WHERE idempotency_owner = ? AND idempotency_key = ?")) {
                ps.setString(1, owner);
                ps.setString(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(turn(rs)) : Optional.<LeasedTurn>empty();
                }
            }
        });
    }

    @Override
    public Optional<LeasedTurn> inSession(String sessionId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM running_turns WHERE session_id = ? ORDER BY started_at LIMIT 1")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(turn(rs)) : Optional.<LeasedTurn>empty();
                }
            }
        });
    }

    @Override
    public List<LeasedTurn> orphaned(Instant now, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM running_turns WHERE leased_until <= ? ORDER BY leased_until LIMIT ?")) {
                codec.setInstant(ps, 1, now);
                ps.setInt(2, limit);
                List<LeasedTurn> found = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) found.add(turn(rs));
                }
                return found;
            }
        });
    }

    @Override
    public Optional<LeasedTurn> takeOver(LeasedTurn turn, InstanceIdentity by, Instant now, Instant until) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE running_turns SET epoch = epoch + 1,"
                    + " instance_id = ?, boot_id = ?, leased_until = ? WHERE turn_id = ? AND epoch = ?"
                    + " AND leased_until <= ?")) {
                ps.setString(1, by.instanceId());
                ps.setString(2, by.bootId());
                codec.setInstant(ps, 3, until);
                ps.setString(4, turn.turnId());
                ps.setLong(5, turn.epoch());
                codec.setInstant(ps, 6, now);
                if (ps.executeUpdate() == 0) return Optional.<LeasedTurn>empty();
            }
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT " + COLUMNS + " FROM running_turns WHERE turn_id = ?")) {
                ps.setString(1, turn.turnId());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(turn(rs)) : Optional.<LeasedTurn>empty();
                }
            }
        });
    }

    private LeasedTurn turn(ResultSet rs) throws SQLException {
        return new LeasedTurn(
                rs.getString("turn_id"),
                rs.getLong("epoch"),
                rs.getString("tenant_id"),
                rs.getString("user_id"),
                rs.getString("session_id"),
                rs.getString("request_id"),
                rs.getString("agent_id"),
                rs.getString("principal_json"),
                new InstanceIdentity(rs.getString("instance_id"), rs.getString("boot_id")),
                codec.getInstant(rs, "leased_until"),
                codec.getInstant(rs, "started_at"),
                rs.getString("state_json"),
                rs.getString("idempotency_owner"),
                rs.getString("idempotency_key"));
    }
}
