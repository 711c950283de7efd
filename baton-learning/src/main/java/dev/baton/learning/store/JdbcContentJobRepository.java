package dev.baton.learning.store;

import dev.baton.learning.Learner;
import dev.baton.learning.content.ContentJob;
import dev.baton.learning.content.ContentJobRepository;
import dev.baton.learning.content.JobStatus;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Content jobs in {@code learning_content_jobs}. A claim picks a job and marks it in one transaction: on PostgreSQL
 * with {@code FOR UPDATE SKIP LOCKED}, so workers on several instances each take a different job without waiting
 * on one another; on SQLite write transactions run one at a time.
 */
public final class JdbcContentJobRepository implements ContentJobRepository {
    private static final String COLUMNS =
            "id, tenant_id, user_id, topic, status, content, error, attempts, created_at, updated_at, session_id, agent_id";
    private static final String OWNED = " WHERE tenant_id = ? AND user_id = ?";

    private final Database db;
    private final ColumnCodec codec;
    private final String skipLocked;

    public JdbcContentJobRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
        this.skipLocked = db.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "";
    }

    @Override
    public void insert(ContentJob job) {
        db.inTransaction(c -> Sql.update(
                c,
                "INSERT INTO learning_content_jobs (id, tenant_id, user_id, topic, status, attempts, created_at,"
                        + " updated_at, session_id, agent_id) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)",
                List.of(
                        Param.text(job.id()),
                        Param.text(job.learner().tenantId()),
                        Param.text(job.learner().userId()),
                        Param.text(job.topic()),
                        Param.text(job.status().wireName()),
                        (ps, i) -> codec.setInstant(ps, i, job.createdAt()),
                        (ps, i) -> codec.setInstant(ps, i, job.updatedAt()),
                        (ps, i) -> ps.setString(i, job.origin().sessionId()),
                        (ps, i) -> ps.setString(i, job.origin().agentId()))));
    }

    @Override
    public Optional<ContentJob> find(Learner learner, String id) {
        return Sql.one(
                db,
                "SELECT " + COLUMNS + " FROM learning_content_jobs" + OWNED + " AND id = ?",
                List.of(Param.text(learner.tenantId()), Param.text(learner.userId()), Param.text(id)),
                this::read);
    }

    @Override
    public Optional<ContentJob> unfinished(Learner learner, String topic) {
        return Sql.one(
                db,
                "SELECT " + COLUMNS + " FROM learning_content_jobs" + OWNED
                        + " AND lower(topic) = lower(?) AND status IN ('queued', 'running') ORDER BY created_at LIMIT 1",
                List.of(Param.text(learner.tenantId()), Param.text(learner.userId()), Param.text(topic)),
                this::read);
    }

    @Override
    public List<ContentJob> recent(Learner learner, int limit) {
        return Sql.list(
                db,
                "SELECT " + COLUMNS + " FROM learning_content_jobs" + OWNED
                        + " ORDER BY created_at DESC, id DESC LIMIT ?",
                List.of(Param.text(learner.tenantId()), Param.text(learner.userId()), Sql.integer(limit)),
                this::read);
    }

    @Override
    public Optional<ContentJob> claim(String workerId, Instant now, Duration lease, int maxAttempts) {
        Param at = (ps, i) -> codec.setInstant(ps, i, now);
        return db.inTransaction(c -> {
            // a worker that died after the last allowed attempt leaves its job running: it is over
            Sql.update(
                    c,
                    "UPDATE learning_content_jobs SET status = 'failed', error = 'the worker stopped before finishing',"
                            + " lease_until = NULL, updated_at = ? WHERE status = 'running' AND lease_until < ?"
                            + " AND attempts >= ?",
                    List.of(at, at, Sql.integer(maxAttempts)));
            Optional<String> id = Sql.one(
                    c,
                    "SELECT id FROM learning_content_jobs WHERE status = 'queued'"
                            + " OR (status = 'running' AND lease_until < ?) ORDER BY created_at, id LIMIT 1"
                            + skipLocked,
                    List.of(at),
                    rs -> rs.getString("id"));
            if (id.isEmpty()) return Optional.empty();
            Sql.update(
                    c,
                    "UPDATE learning_content_jobs SET status = 'running', worker_id = ?, lease_until = ?,"
                            + " attempts = attempts + 1, updated_at = ? WHERE id = ?",
                    List.of(
                            Param.text(workerId),
                            (ps, i) -> codec.setInstant(ps, i, now.plus(lease)),
                            at,
                            Param.text(id.get())));
            return Sql.one(
                    c,
                    "SELECT " + COLUMNS + " FROM learning_content_jobs WHERE id = ?",
                    List.of(Param.text(id.get())),
                    this::read);
        });
    }

    @Override
    public boolean complete(String id, String workerId, String content, Instant now) {
        return db.inTransaction(c -> Sql.update(
                        c,
                        "UPDATE learning_content_jobs SET status = 'completed', content = ?, error = NULL,"
                                + " lease_until = NULL, updated_at = ? WHERE id = ? AND worker_id = ? AND status = 'running'",
                        List.of(
                                Param.text(content),
                                (ps, i) -> codec.setInstant(ps, i, now),
                                Param.text(id),
                                Param.text(workerId)))
                == 1);
    }

    @Override
    public boolean fail(String id, String workerId, String error, boolean retry, Instant now) {
        return db.inTransaction(c -> Sql.update(
                        c,
                        "UPDATE learning_content_jobs SET status = ?, error = ?, lease_until = NULL, updated_at = ?"
                                + " WHERE id = ? AND worker_id = ? AND status = 'running'",
                        List.of(
                                Param.text(retry ? JobStatus.QUEUED.wireName() : JobStatus.FAILED.wireName()),
                                Param.text(error),
                                (ps, i) -> codec.setInstant(ps, i, now),
                                Param.text(id),
                                Param.text(workerId)))
                == 1);
    }

    private ContentJob read(ResultSet rs) throws SQLException {
        return new ContentJob(
                rs.getString("id"),
                new Learner(rs.getString("tenant_id"), rs.getString("user_id")),
                rs.getString("topic"),
                JobStatus.fromWireName(rs.getString("status")),
                rs.getString("content"),
                rs.getString("error"),
                rs.getInt("attempts"),
                codec.getInstant(rs, "created_at"),
                codec.getInstant(rs, "updated_at"),
                new ContentJob.Origin(rs.getString("session_id"), rs.getString("agent_id")));
    }
}
