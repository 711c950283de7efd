package dev.baton.learning.store;

import dev.baton.learning.Learner;
import dev.baton.learning.enrolment.EnrolledCourse;
import dev.baton.learning.enrolment.Enrolment;
import dev.baton.learning.enrolment.EnrolmentRepository;
import dev.baton.learning.enrolment.EnrolmentStatus;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Enrolments in {@code learning_enrolments}; every statement filters by tenant and user. */
public final class JdbcEnrolmentRepository implements EnrolmentRepository {
    private static final String COLUMNS =
            "e.id, e.tenant_id, e.user_id, e.course_id, e.progress_percent, e.status, e.enrolled_at, e.updated_at";
    private static final String OWNED = " WHERE e.tenant_id = ? AND e.user_id = ?";

    private final Database db;
    private final ColumnCodec codec;

    public JdbcEnrolmentRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public boolean insert(Enrolment e) {
        // ON CONFLICT DO NOTHING: the unique key decides between two concurrent enrolments, and neither fails
        return db.inTransaction(c -> Sql.update(
                        c,
                        "INSERT INTO learning_enrolments (id, tenant_id, user_id, course_id, progress_percent, status,"
                                + " enrolled_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                                + " ON CONFLICT (tenant_id, user_id, course_id) DO NOTHING",
                        List.of(
                                Param.text(e.id()),
                                Param.text(e.learner().tenantId()),
                                Param.text(e.learner().userId()),
                                Param.text(e.courseId()),
                                Sql.integer(e.progressPercent()),
                                Param.text(e.status().wireName()),
                                (ps, i) -> codec.setInstant(ps, i, e.enrolledAt()),
                                (ps, i) -> codec.setInstant(ps, i, e.updatedAt())))
                == 1);
    }

    @Override
    public List<EnrolledCourse> enrolments(Learner learner, int limit) {
        return Sql.list(
                db,
                "SELECT " + COLUMNS + ", " + CourseRows.columns("c")
                        + " FROM learning_enrolments e JOIN learning_courses c ON c.id = e.course_id" + OWNED
                        + " ORDER BY e.enrolled_at DESC, e.id DESC LIMIT ?",
                List.of(Param.text(learner.tenantId()), Param.text(learner.userId()), Sql.integer(limit)),
                rs -> new EnrolledCourse(read(rs), CourseRows.read(rs)));
    }

    @Override
    public Optional<Enrolment> find(Learner learner, String courseId) {
        return Sql.one(
                db,
                "SELECT " + COLUMNS + " FROM learning_enrolments e" + OWNED + " AND e.course_id = ?",
                owned(learner, courseId),
                this::read);
    }

    @Override
    public Optional<Enrolment> update(Learner learner, String courseId, UnaryOperator<Enrolment> change) {
        return db.inTransaction(c -> {
            Optional<Enrolment> current = Sql.one(
                    c,
                    "SELECT " + COLUMNS + " FROM learning_enrolments e" + OWNED + " AND e.course_id = ?"
                            + Sql.forUpdate(db),
                    owned(learner, courseId),
                    this::read);
            if (current.isEmpty()) return Optional.empty();
            Enrolment changed = change.apply(current.get());
            Sql.update(
                    c,
                    "UPDATE learning_enrolments SET progress_percent = ?, status = ?, updated_at = ? WHERE id = ?"
                            + " AND tenant_id = ? AND user_id = ?",
                    List.of(
                            Sql.integer(changed.progressPercent()),
                            Param.text(changed.status().wireName()),
                            (ps, i) -> codec.setInstant(ps, i, changed.updatedAt()),
                            Param.text(current.get().id()),
                            Param.text(learner.tenantId()),
                            Param.text(learner.userId())));
            return Optional.of(changed);
        });
    }

    private static List<Param> owned(Learner learner, String courseId) {
        return List.of(Param.text(learner.tenantId()), Param.text(learner.userId()), Param.text(courseId));
    }

    private Enrolment read(ResultSet rs) throws SQLException {
        return new Enrolment(
                rs.getString("id"),
                new Learner(rs.getString("tenant_id"), rs.getString("user_id")),
                rs.getString("course_id"),
                rs.getInt("progress_percent"),
                EnrolmentStatus.fromWireName(rs.getString("status")),
                codec.getInstant(rs, "enrolled_at"),
                codec.getInstant(rs, "updated_at"));
    }
}
