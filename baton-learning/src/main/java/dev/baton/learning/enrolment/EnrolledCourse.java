package dev.baton.learning.enrolment;

import dev.baton.learning.catalogue.Course;
import java.util.Objects;

/** An enrolment with its course, read together in one query (a listing never asks per course). */
public record EnrolledCourse(Enrolment enrolment, Course course) {
    public EnrolledCourse {
        Objects.requireNonNull(enrolment, "enrolment");
        Objects.requireNonNull(course, "course");
    }
}
