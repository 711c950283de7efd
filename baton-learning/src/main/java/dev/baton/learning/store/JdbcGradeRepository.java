package dev.baton.learning.store;

import dev.baton.learning.Learner;
import dev.baton.learning.assessment.CourseGrade;
import dev.baton.learning.assessment.Grade;
import dev.baton.learning.assessment.GradeRepository;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Grades in {@code learning_grades}; reads filter by tenant and user. */
public final class JdbcGradeRepository implements GradeRepository {
    private final Database db;
    private final ColumnCodec codec;

    public JdbcGradeRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public void insert(Grade g) {
        db.inTransaction(c -> Sql.update(
                c,
                "INSERT INTO learning_grades (id, tenant_id, user_id, course_id, item, points, max_points, graded_by,"
                        + " graded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                List.of(
                        Param.text(g.id()),
                        Param.text(g.learner().tenantId()),
                        Param.text(g.learner().userId()),
                        Param.text(g.courseId()),
                        Param.text(g.item()),
                        Sql.integer(g.points()),
                        Sql.integer(g.maxPoints()),
                        Param.text(g.gradedBy()),
                        (ps, i) -> codec.setInstant(ps, i, g.gradedAt()))));
    }

    @Override
    public List<CourseGrade> grades(Learner learner, String courseId, int limit) {
        List<Param> params = new ArrayList<>(List.of(Param.text(learner.tenantId()), Param.text(learner.userId())));
        String course = "";
        if (courseId != null) {
            course = " AND g.course_id = ?";
            params.add(Param.text(courseId));
        }
        params.add(Sql.integer(limit));
        return Sql.list(
                db,
                "SELECT g.id, g.tenant_id, g.user_id, g.course_id, g.item, g.points, g.max_points, g.graded_by,"
                        + " g.graded_at, c.title AS course_title FROM learning_grades g"
                        + " JOIN learning_courses c ON c.id = g.course_id"
                        + " WHERE g.tenant_id = ? AND g.user_id = ?" + course
                        + " ORDER BY c.title, g.graded_at DESC, g.id LIMIT ?",
                params,
                rs -> new CourseGrade(
                        new Grade(
                                rs.getString("id"),
                                new Learner(rs.getString("tenant_id"), rs.getString("user_id")),
                                rs.getString("course_id"),
                                rs.getString("item"),
                                rs.getInt("points"),
                                rs.getInt("max_points"),
                                rs.getString("graded_by"),
                                codec.getInstant(rs, "graded_at")),
                        rs.getString("course_title")));
    }
}
