package dev.baton.learning.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.id.Ids;
import dev.baton.learning.Learner;
import dev.baton.learning.library.Granularity;
import dev.baton.learning.memory.AgentState;
import dev.baton.learning.memory.DecisionPoint;
import dev.baton.learning.memory.MemoryRepository;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The learning agent's memory in {@code learning_agent_state}, {@code learning_decisions} and its audit table. */
public final class JdbcMemoryRepository implements MemoryRepository {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OWNED = " WHERE tenant_id = ? AND user_id = ?";

    private final Database db;
    private final ColumnCodec codec;
    private final String jsonPlaceholder;

    public JdbcMemoryRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
        this.jsonPlaceholder = db.dialect() == Dialect.POSTGRESQL ? "CAST(? AS jsonb)" : "?";
    }

    @Override
    public Optional<AgentState> state(Learner learner) {
        return Sql.one(
                db,
                "SELECT current_topic, current_granularity, pending_question, updated_at FROM learning_agent_state"
                        + OWNED,
                owner(learner),
                rs -> new AgentState(
                        learner,
                        rs.getString("current_topic"),
                        rs.getString("current_granularity") == null
                                ? null
                                : Granularity.fromWireName(rs.getString("current_granularity")),
                        rs.getString("pending_question"),
                        codec.getInstant(rs, "updated_at")));
    }

    @Override
    public void saveState(AgentState state) {
        db.inTransaction(c -> upsert(c, state));
    }

    @Override
    public void remember(DecisionPoint d, AgentState state) {
        db.inTransaction(c -> {
            Sql.update(
                    c,
                    "INSERT INTO learning_decisions (id, tenant_id, user_id, session_id, decision, data, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, " + jsonPlaceholder + ", ?)",
                    List.of(
                            Param.text(d.id()),
                            Param.text(d.learner().tenantId()),
                            Param.text(d.learner().userId()),
                            Param.text(d.sessionId()),
                            Param.text(d.decision()),
                            Param.text(d.data().toString()),
                            (ps, i) -> codec.setInstant(ps, i, d.createdAt())));
            return upsert(c, state);
        });
    }

    @Override
    public List<DecisionPoint> decisions(Learner learner, int limit) {
        return Sql.list(
                db,
                "SELECT id, session_id, decision, data, created_at FROM learning_decisions" + OWNED
                        + " ORDER BY created_at DESC, id DESC LIMIT ?",
                List.of(Param.text(learner.tenantId()), Param.text(learner.userId()), Sql.integer(limit)),
                rs -> new DecisionPoint(
                        rs.getString("id"),
                        learner,
                        rs.getString("session_id"),
                        rs.getString("decision"),
                        object(rs.getString("data")),
                        codec.getInstant(rs, "created_at")));
    }

    @Override
    public int forget(Learner learner, String actorId, Instant at) {
        return db.inTransaction(c -> {
            int decisions = Sql.update(c, "DELETE FROM learning_decisions" + OWNED, owner(learner));
            Sql.update(c, "DELETE FROM learning_agent_state" + OWNED, owner(learner));
            Sql.update(
                    c,
                    "INSERT INTO learning_memory_audit (id, tenant_id, target_user_id, actor_id, action, created_at)"
                            + " VALUES (?, ?, ?, ?, 'reset', ?)",
                    List.of(
                            Param.text(Ids.newId()),
                            Param.text(learner.tenantId()),
                            Param.text(learner.userId()),
                            Param.text(actorId),
                            (ps, i) -> codec.setInstant(ps, i, at)));
            return decisions;
        });
    }

    @Override
    public int purge(Instant cutoff, int limit) {
        Param before = (ps, i) -> codec.setInstant(ps, i, cutoff);
        return db.inTransaction(c -> Sql.update(
                        c,
                        "DELETE FROM learning_decisions WHERE id IN (SELECT id FROM learning_decisions"
                                + " WHERE created_at < ? ORDER BY created_at LIMIT ?)",
                        List.of(before, Sql.integer(limit)))
                + Sql.update(
                        c,
                        "DELETE FROM learning_agent_state WHERE (tenant_id, user_id) IN (SELECT tenant_id, user_id"
                                + " FROM learning_agent_state WHERE updated_at < ? ORDER BY updated_at LIMIT ?)",
                        List.of(before, Sql.integer(limit))));
    }

    private int upsert(Connection c, AgentState s) throws SQLException {
        return Sql.update(
                c,
                "INSERT INTO learning_agent_state (tenant_id, user_id, current_topic, current_granularity,"
                        + " pending_question, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                        + " ON CONFLICT (tenant_id, user_id) DO UPDATE SET current_topic = excluded.current_topic,"
                        + " current_granularity = excluded.current_granularity,"
                        + " pending_question = excluded.pending_question, updated_at = excluded.updated_at",
                List.of(
                        Param.text(s.learner().tenantId()),
                        Param.text(s.learner().userId()),
                        Param.text(s.currentTopic()),
                        Param.text(
                                s.currentGranularity() == null
                                        ? null
                                        : s.currentGranularity().wireName()),
                        Param.text(s.pendingQuestion()),
                        (ps, i) -> codec.setInstant(ps, i, s.updatedAt())));
    }

    private static List<Param> owner(Learner learner) {
        return List.of(Param.text(learner.tenantId()), Param.text(learner.userId()));
    }

    private static ObjectNode object(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("learning_decisions.data holds no JSON object", e);
        }
    }
}
