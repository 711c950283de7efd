package dev.baton.learning.enrolment;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.catalogue.CatalogueService;
import dev.baton.learning.catalogue.Course;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/** Enrolments and progress (the platform's "learning" service): always the caller's own. */
public final class LearningService {
    /** A listing returns at most this many enrolments. */
    public static final int MAX_LISTED = 200;

    private final EnrolmentRepository repository;
    private final CatalogueService catalogue;
    private final Clock clock;

    public LearningService(EnrolmentRepository repository, CatalogueService catalogue, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The caller's enrolled courses with their progress, most recent first. */
    public List<EnrolledCourse> enrolments(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return repository.enrolments(Learner.of(principal), MAX_LISTED);
    }

    /**
     * Enrols the caller in a course.
     *
     * @throws LearningException not_found for an unknown course; conflict when the course takes no enrolments or
     *     the caller is already enrolled
     */
    public EnrolledCourse enrol(Principal principal, String courseId) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        Course course = catalogue.find(courseId);
        if (!course.open()) {
            throw LearningException.conflict("The course '" + course.title() + "' is not open for enrolment.");
        }
        Enrolment enrolment = Enrolment.start(Ids.newId(), Learner.of(principal), course.id(), now());
        if (!repository.insert(enrolment)) {
            throw LearningException.conflict("You are already enrolled in '" + course.title() + "'.");
        }
        return new EnrolledCourse(enrolment, course);
    }

    /**
     * Records how far the caller got in a course they are enrolled in; 100 completes it.
     *
     * @throws LearningException invalid_argument outside 0..100; not_found unless the caller is enrolled
     */
    public Enrolment updateProgress(Principal principal, String courseId, int percent) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        if (percent < 0 || percent > 100) {
            throw LearningException.invalidArgument("progressPercent must be 0-100 (got " + percent + ")");
        }
        if (!dev.baton.learning.Texts.plausibleId(courseId))
            throw LearningException.notFound("enrolment in course", courseId);
        Instant now = now();
        return repository
                .update(Learner.of(principal), courseId, e -> e.withProgress(percent, now))
                .orElseThrow(() -> LearningException.notFound("enrolment in course", courseId));
    }

    /** Whether the learner is enrolled in the course (for the services that admit only enrolled learners). */
    public boolean isEnrolled(Learner learner, String courseId) {
        return repository.find(learner, courseId).isPresent();
    }

    // the database keeps microseconds; truncating here makes what we return equal to what a re-read gives
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
