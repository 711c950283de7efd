package dev.baton.learning.enrolment;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.Objects;

/**
 * One learner's place in one course.
 *
 * @param progressPercent 0 to 100
 */
public record Enrolment(
        String id,
        Learner learner,
        String courseId,
        int progressPercent,
        EnrolmentStatus status,
        Instant enrolledAt,
        Instant updatedAt) {
    public Enrolment {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(courseId, "courseId");
        if (progressPercent < 0 || progressPercent > 100)
            throw new IllegalArgumentException("progressPercent must be 0..100");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(enrolledAt, "enrolledAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** A new enrolment at 0%. */
    public static Enrolment start(String id, Learner learner, String courseId, Instant now) {
        return new Enrolment(id, learner, courseId, 0, EnrolmentStatus.ACTIVE, now, now);
    }

    /** This enrolment at {@code percent}; 100% completes it. */
    public Enrolment withProgress(int percent, Instant now) {
        return new Enrolment(id, learner, courseId, percent, EnrolmentStatus.forProgress(percent), enrolledAt, now);
    }
}
