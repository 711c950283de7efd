package dev.baton.learning.store;

import dev.baton.learning.catalogue.Course;
import dev.baton.learning.catalogue.CourseLevel;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * How a course is selected and read, alone or joined to the rows that name it (enrolments), so the columns are
 * spelled once and a listing reads its courses in the same query.
 */
final class CourseRows {
    private CourseRows() {}

    /** The course columns of table alias {@code a}, named {@code course_*} in the result. */
    static String columns(String a) {
        return a + ".id AS course_id, " + a + ".title AS course_title, " + a + ".summary AS course_summary, " + a
                + ".instructor AS course_instructor, " + a + ".category AS course_category, " + a
                + ".level AS course_level, " + a + ".is_open AS course_open, " + a + ".price_cents AS course_price";
    }

    static Course read(ResultSet rs) throws SQLException {
        return new Course(
                rs.getString("course_id"),
                rs.getString("course_title"),
                rs.getString("course_summary"),
                rs.getString("course_instructor"),
                rs.getString("course_category"),
                CourseLevel.parse(rs.getString("course_level")),
                rs.getBoolean("course_open"),
                rs.getLong("course_price"));
    }
}
