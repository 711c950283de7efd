package dev.baton.learning.assessment;

import java.util.Objects;

/** A grade with the title of its course, read together in one query. */
public record CourseGrade(Grade grade, String courseTitle) {
    public CourseGrade {
        Objects.requireNonNull(grade, "grade");
        Objects.requireNonNull(courseTitle, "courseTitle");
    }
}
