package dev.baton.learning.assessment;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.catalogue.CatalogueService;
import dev.baton.learning.catalogue.Course;
import dev.baton.learning.enrolment.LearningService;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/** Grades per course: a learner reads only their own; an instructor records them for enrolled learners. */
public final class AssessmentService {
    /** A listing returns at most this many grades. */
    public static final int MAX_LISTED = 500;

    private final GradeRepository repository;
    private final CatalogueService catalogue;
    private final LearningService learning;
    private final Clock clock;

    public AssessmentService(
            GradeRepository repository, CatalogueService catalogue, LearningService learning, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.learning = Objects.requireNonNull(learning, "learning");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The caller's grades.
     *
     * @param courseId only this course's, or null for all
     * @throws LearningException not_found for an unknown course
     */
    public List<CourseGrade> grades(Principal principal, String courseId) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        if (courseId != null) catalogue.find(courseId);
        return repository.grades(Learner.of(principal), courseId, MAX_LISTED);
    }

    /**
     * Records a grade for a learner of the caller's tenant who is enrolled in the course.
     *
     * @throws LearningException permission_denied without {@link LearningPermissions#GRADE}; not_found for an unknown
     *     course or a learner who is not enrolled in it
     */
    public CourseGrade record(Principal principal, String courseId, NewGrade spec) {
        LearningPermissions.require(principal, LearningPermissions.GRADE);
        Objects.requireNonNull(spec, "spec");
        Course course = catalogue.find(courseId);
        Learner learner = new Learner(principal.tenantId(), spec.learnerId());
        if (!learning.isEnrolled(learner, course.id())) {
            throw LearningException.notFound("learner enrolled in this course", spec.learnerId());
        }
        Grade grade = new Grade(
                Ids.newId(),
                learner,
                course.id(),
                spec.item(),
                spec.points(),
                spec.maxPoints(),
                principal.userId(),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
        repository.insert(grade);
        return new CourseGrade(grade, course.title());
    }
}
