package dev.baton.learning.assessment;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.Objects;

/**
 * One graded item (an exam, a lab report) of one learner in one course.
 *
 * @param gradedBy the user id of whoever recorded it
 */
public record Grade(
        String id,
        Learner learner,
        String courseId,
        String item,
        int points,
        int maxPoints,
        String gradedBy,
        Instant gradedAt) {
    public Grade {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(courseId, "courseId");
        Objects.requireNonNull(item, "item");
        if (maxPoints < 1) throw new IllegalArgumentException("maxPoints must be >= 1");
        if (points < 0 || points > maxPoints) throw new IllegalArgumentException("points must be 0..maxPoints");
        Objects.requireNonNull(gradedBy, "gradedBy");
        Objects.requireNonNull(gradedAt, "gradedAt");
    }
}
