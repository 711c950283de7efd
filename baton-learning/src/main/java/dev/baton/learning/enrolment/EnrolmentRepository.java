package dev.baton.learning.enrolment;

import dev.baton.learning.Learner;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Where enrolments are kept; every method is scoped to one learner. */
public interface EnrolmentRepository {

    /**
     * Stores a new enrolment unless the learner is already enrolled in that course (checked by the database, so
     * two concurrent attempts cannot both succeed).
     *
     * @return false when the learner was already enrolled
     */
    boolean insert(Enrolment enrolment);

    /** The learner's enrolments with their courses, most recent first, at most {@code limit}. */
    List<EnrolledCourse> enrolments(Learner learner, int limit);

    Optional<Enrolment> find(Learner learner, String courseId);

    /** Changes the learner's enrolment in the course atomically; empty when there is none. */
    Optional<Enrolment> update(Learner learner, String courseId, UnaryOperator<Enrolment> change);
}
