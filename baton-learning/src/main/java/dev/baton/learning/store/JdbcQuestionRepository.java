package dev.baton.learning.store;

import dev.baton.learning.Learner;
import dev.baton.learning.engagement.Question;
import dev.baton.learning.engagement.QuestionRepository;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.util.List;
import java.util.Objects;

/** Course Q&A questions in {@code learning_questions}; reads filter by tenant. */
public final class JdbcQuestionRepository implements QuestionRepository {
    private final Database db;
    private final ColumnCodec codec;

    public JdbcQuestionRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public void insert(Question q) {
        db.inTransaction(c -> Sql.update(
                c,
                "INSERT INTO learning_questions (id, tenant_id, user_id, course_id, title, body, asked_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?)",
                List.of(
                        Param.text(q.id()),
                        Param.text(q.author().tenantId()),
                        Param.text(q.author().userId()),
                        Param.text(q.courseId()),
                        Param.text(q.title()),
                        Param.text(q.body()),
                        (ps, i) -> codec.setInstant(ps, i, q.askedAt()))));
    }

    @Override
    public List<Question> questions(String tenantId, String courseId, int limit) {
        return Sql.list(
                db,
                "SELECT id, tenant_id, user_id, course_id, title, body, asked_at FROM learning_questions"
                        + " WHERE tenant_id = ? AND course_id = ? ORDER BY asked_at DESC, id DESC LIMIT ?",
                List.of(Param.text(tenantId), Param.text(courseId), Sql.integer(limit)),
                rs -> new Question(
                        rs.getString("id"),
                        new Learner(rs.getString("tenant_id"), rs.getString("user_id")),
                        rs.getString("course_id"),
                        rs.getString("title"),
                        rs.getString("body"),
                        codec.getInstant(rs, "asked_at")));
    }
}
