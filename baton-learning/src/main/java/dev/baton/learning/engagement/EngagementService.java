package dev.baton.learning.engagement;

import dev.baton.core.auth.Principal;
import dev.baton.core.domain.DomainException;
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

/** Course Q&A: only learners enrolled in a course ask and read its questions. */
public final class EngagementService {
    /** A listing returns at most this many questions. */
    public static final int MAX_LISTED = 100;

    private final QuestionRepository repository;
    private final CatalogueService catalogue;
    private final LearningService learning;
    private final Clock clock;

    public EngagementService(
            QuestionRepository repository, CatalogueService catalogue, LearningService learning, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.learning = Objects.requireNonNull(learning, "learning");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Posts a question in a course the caller is enrolled in.
     *
     * @throws LearningException not_found for an unknown course; permission_denied unless the caller is enrolled
     */
    public Question ask(Principal principal, String courseId, NewQuestion spec) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        Objects.requireNonNull(spec, "spec");
        Course course = enrolledCourse(principal, courseId);
        Question question = new Question(
                Ids.newId(),
                Learner.of(principal),
                course.id(),
                spec.title(),
                spec.body(),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
        repository.insert(question);
        return question;
    }

    /** The course's questions, newest first, for a caller enrolled in it. */
    public List<Question> questions(Principal principal, String courseId) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        Course course = enrolledCourse(principal, courseId);
        return repository.questions(principal.tenantId(), course.id(), MAX_LISTED);
    }

    private Course enrolledCourse(Principal principal, String courseId) {
        Course course = catalogue.find(courseId);
        if (!learning.isEnrolled(Learner.of(principal), course.id())) {
            throw new LearningException(
                    DomainException.Kind.PERMISSION_DENIED,
                    "Only learners enrolled in '" + course.title() + "' can use its Q&A. Enrol first.");
        }
        return course;
    }
}
