package dev.baton.learning.store;

import dev.baton.learning.catalogue.CatalogueRepository;
import dev.baton.learning.catalogue.Course;
import dev.baton.learning.catalogue.CourseQuery;
import dev.baton.learning.catalogue.Resource;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/** The catalogue in {@code learning_courses} and {@code learning_resources}. */
public final class JdbcCatalogueRepository implements CatalogueRepository {
    private static final String SELECT_COURSES = "SELECT " + CourseRows.columns("c") + " FROM learning_courses c";

    private final Database db;

    public JdbcCatalogueRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public List<Course> courses(CourseQuery query, int limit) {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        List<Param> params = new ArrayList<>();
        if (query.text() != null) {
            where.append(" AND (lower(c.title) LIKE ? ESCAPE '\\' OR lower(c.summary) LIKE ? ESCAPE '\\'"
                    + " OR lower(c.instructor) LIKE ? ESCAPE '\\' OR lower(c.category) LIKE ? ESCAPE '\\')");
            String pattern = "%" + likeEscaped(query.text().toLowerCase(Locale.ROOT)) + "%";
            for (int i = 0; i < 4; i++) params.add(Param.text(pattern));
        }
        if (query.category() != null) {
            where.append(" AND lower(c.category) = ?");
            params.add(Param.text(query.category().toLowerCase(Locale.ROOT)));
        }
        if (query.level() != null) {
            where.append(" AND c.level = ?");
            params.add(Param.text(query.level().wireName()));
        }
        params.add(Sql.integer(limit));
        return Sql.list(db, SELECT_COURSES + where + " ORDER BY c.title, c.id LIMIT ?", params, CourseRows::read);
    }

    @Override
    public Optional<Course> course(String id) {
        return Sql.one(db, SELECT_COURSES + " WHERE c.id = ?", List.of(Param.text(id)), CourseRows::read);
    }

    @Override
    public Optional<Resource> resource(String id) {
        return Sql.one(
                db,
                "SELECT id, title, kind, course_id, price_cents FROM learning_resources WHERE id = ?",
                List.of(Param.text(id)),
                rs -> new Resource(
                        rs.getString("id"),
                        rs.getString("title"),
                        rs.getString("kind"),
                        rs.getString("course_id"),
                        rs.getLong("price_cents")));
    }

    @Override
    public int seed(List<Course> courses, List<Resource> resources) {
        return db.inTransaction(c -> {
            int added = 0;
            for (Course course : courses) {
                added += Sql.update(
                        c,
                        "INSERT INTO learning_courses (id, title, summary, instructor, category, level, is_open,"
                                + " price_cents) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                        List.of(
                                Param.text(course.id()),
                                Param.text(course.title()),
                                Param.text(course.summary()),
                                Param.text(course.instructor()),
                                Param.text(course.category()),
                                Param.text(course.level().wireName()),
                                Sql.bool(course.open()),
                                Sql.integer(course.priceCents())));
            }
            for (Resource resource : resources) {
                Sql.update(
                        c,
                        "INSERT INTO learning_resources (id, title, kind, course_id, price_cents)"
                                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                        List.of(
                                Param.text(resource.id()),
                                Param.text(resource.title()),
                                Param.text(resource.kind()),
                                Param.text(resource.courseId()),
                                Sql.integer(resource.priceCents())));
            }
            return added;
        });
    }

    @Override
    public boolean isEmpty() {
        return Sql.one(db, "SELECT 1 AS one FROM learning_courses LIMIT 1", List.of(), rs -> 1)
                .isEmpty();
    }

    /** {@code %}, {@code _} and the escape itself stand for themselves in what a user typed. */
    static String likeEscaped(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
