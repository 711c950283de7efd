package dev.baton.learning.domain;

import static dev.baton.core.domain.DomainException.Kind.CONFLICT;
import static dev.baton.core.domain.DomainException.Kind.INVALID_ARGUMENT;
import static dev.baton.core.domain.DomainException.Kind.NOT_FOUND;
import static dev.baton.core.domain.DomainException.Kind.PERMISSION_DENIED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningModule;
import dev.baton.learning.assessment.CourseGrade;
import dev.baton.learning.assessment.NewGrade;
import dev.baton.learning.catalogue.Course;
import dev.baton.learning.catalogue.CourseLevel;
import dev.baton.learning.catalogue.CourseQuery;
import dev.baton.learning.commerce.CartItem;
import dev.baton.learning.commerce.ItemType;
import dev.baton.learning.engagement.NewQuestion;
import dev.baton.learning.engagement.Question;
import dev.baton.learning.enrolment.EnrolledCourse;
import dev.baton.learning.enrolment.EnrolmentStatus;
import dev.baton.learning.support.Learners;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the platform's services promise over a real database (catalogue, enrolments, grades, cart, Q&A, routes); run
 * once per dialect by its subclasses. Lab bookings are in {@link LabBookingContract}.
 */
abstract class PlatformServicesContract extends LearningDatabaseTest {
    Principal alice;
    Principal bob;

    @BeforeEach
    void newLearners() {
        alice = Learners.newLearner();
        bob = Learners.newLearner();
    }

    // catalogue

    @Test
    void the_demo_catalogue_lists_a_dozen_courses_by_title() {
        List<Course> courses = module.catalogue().listCourses(alice);

        assertThat(courses).hasSize(12);
        assertThat(courses).extracting(Course::title).isSorted();
        assertThat(courses).extracting(Course::category).contains("Physics", "Mathematics", "Leadership", "History");
        Course quantum = module.catalogue().course(alice, "quantum-physics-101");
        assertThat(quantum.instructor()).isEqualTo("Dr. Ada Whitfield");
        assertThat(quantum.level()).isEqualTo(CourseLevel.BEGINNER);
    }

    @Test
    void seeding_again_adds_nothing_and_keeps_what_is_there() {
        assertThat(module.seedCatalogue(LearningModule.demoCatalogue())).isZero();
        assertThat(module.catalogue().listCourses(alice)).hasSize(12);
    }

    @Test
    void search_matches_words_in_title_summary_instructor_or_category_ignoring_case() {
        assertThat(module.catalogue().search(alice, CourseQuery.of("PHYSICS", null, null)))
                .extracting(Course::id)
                .containsExactlyInAnyOrder("quantum-physics-101", "classical-mechanics", "astrophysics-intro");
        assertThat(module.catalogue().search(alice, CourseQuery.of("schrödinger", null, null)))
                .extracting(Course::id)
                .containsExactly("quantum-physics-101");
        assertThat(module.catalogue().search(alice, CourseQuery.of("osei", null, null)))
                .extracting(Course::id)
                .containsExactlyInAnyOrder("calculus-1", "linear-algebra");
    }

    @Test
    void search_filters_by_category_and_level_together() {
        List<Course> found = module.catalogue().search(alice, CourseQuery.of(null, "physics", "beginner"));

        assertThat(found).extracting(Course::id).containsExactly("astrophysics-intro", "quantum-physics-101");
        assertThat(module.catalogue().search(alice, CourseQuery.of("physics", null, "advanced")))
                .isEmpty();
    }

    @Test
    void like_wildcards_in_a_query_are_plain_characters() {
        assertThat(module.catalogue().search(alice, CourseQuery.of("%", null, null)))
                .isEmpty();
        assertThat(module.catalogue().search(alice, CourseQuery.of("_", null, null)))
                .isEmpty();
    }

    @Test
    void an_unknown_level_is_refused_with_the_levels_there_are() {
        refused(() -> CourseQuery.of(null, null, "expert"), INVALID_ARGUMENT, "beginner, intermediate, advanced");
    }

    @Test
    void a_caller_without_the_read_permission_is_refused() {
        Principal nobody = Learners.user("nobody", "default");
        refused(() -> module.catalogue().listCourses(nobody), PERMISSION_DENIED, "learning:read:self");
        refused(() -> module.learning().enrol(nobody, "calculus-1"), PERMISSION_DENIED, "learning:write:self");
    }

    // enrolments

    @Test
    void an_enrolment_reads_back_with_its_course_at_zero_progress() {
        module.learning().enrol(alice, "calculus-1");

        List<EnrolledCourse> mine = module.learning().enrolments(alice);

        assertThat(mine).hasSize(1);
        assertThat(mine.getFirst().course().title()).isEqualTo("Calculus I");
        assertThat(mine.getFirst().enrolment().progressPercent()).isZero();
        assertThat(mine.getFirst().enrolment().status()).isEqualTo(EnrolmentStatus.ACTIVE);
        assertThat(mine.getFirst().enrolment().enrolledAt()).isEqualTo(NOW);
    }

    @Test
    void enrolling_twice_is_a_conflict_and_leaves_one_enrolment() {
        module.learning().enrol(alice, "calculus-1");

        refused(() -> module.learning().enrol(alice, "calculus-1"), CONFLICT, "already enrolled in 'Calculus I'");
        assertThat(module.learning().enrolments(alice)).hasSize(1);
    }

    @Test
    void two_concurrent_enrolments_of_one_learner_in_one_course_make_exactly_one() throws Exception {
        List<Future<Boolean>> attempts = race(4, () -> module.learning().enrol(alice, "linear-algebra"));

        assertThat(successes(attempts)).isEqualTo(1);
        assertThat(module.learning().enrolments(alice)).hasSize(1);
    }

    @Test
    void a_closed_course_takes_no_enrolment_and_an_unknown_one_is_not_found() {
        refused(() -> module.learning().enrol(alice, "astrophysics-intro"), CONFLICT, "not open for enrolment");
        refused(
                () -> module.learning().enrol(alice, "no-such-course"),
                NOT_FOUND,
                "No course with id 'no-such-course'");
        refused(() -> module.learning().enrol(alice, "x".repeat(500)), NOT_FOUND, "No course");
    }

    @Test
    void enrolments_are_only_ever_the_callers_own() {
        module.learning().enrol(alice, "calculus-1");
        module.learning().enrol(bob, "spanish-a1");

        assertThat(module.learning().enrolments(alice))
                .extracting(e -> e.course().id())
                .containsExactly("calculus-1");
        assertThat(module.learning().enrolments(bob))
                .extracting(e -> e.course().id())
                .containsExactly("spanish-a1");
        Principal otherTenantAlice = Learners.user(alice.userId(), "other-tenant", "learning:read:self");
        assertThat(module.learning().enrolments(otherTenantAlice)).isEmpty();
    }

    @Test
    void progress_of_one_hundred_completes_the_enrolment_and_is_bounded() {
        module.learning().enrol(alice, "calculus-1");
        clock.advance(Duration.ofDays(3));

        var done = module.learning().updateProgress(alice, "calculus-1", 100);

        assertThat(done.status()).isEqualTo(EnrolmentStatus.COMPLETED);
        assertThat(module.learning().enrolments(alice).getFirst().enrolment().updatedAt())
                .isEqualTo(NOW.plus(Duration.ofDays(3)));
        refused(() -> module.learning().updateProgress(alice, "calculus-1", 101), INVALID_ARGUMENT, "0-100");
        refused(() -> module.learning().updateProgress(bob, "calculus-1", 50), NOT_FOUND, "enrolment");
    }

    // grades

    @Test
    void a_learner_sees_only_their_own_grades() {
        Principal teacher = Learners.newInstructor();
        module.learning().enrol(alice, "calculus-1");
        module.learning().enrol(bob, "calculus-1");
        module.assessment().record(teacher, "calculus-1", new NewGrade(alice.userId(), "Midterm", 42, 50));
        module.assessment().record(teacher, "calculus-1", new NewGrade(bob.userId(), "Midterm", 20, 50));

        List<CourseGrade> mine = module.assessment().grades(alice, "calculus-1");

        assertThat(mine).hasSize(1);
        assertThat(mine.getFirst().grade().points()).isEqualTo(42);
        assertThat(mine.getFirst().courseTitle()).isEqualTo("Calculus I");
        assertThat(module.assessment().grades(alice, null)).hasSize(1);
        assertThat(module.assessment().grades(bob, null))
                .extracting(g -> g.grade().points())
                .containsExactly(20);
    }

    @Test
    void grades_filter_by_course_and_an_unknown_course_is_not_found() {
        Principal teacher = Learners.newInstructor();
        module.learning().enrol(alice, "calculus-1");
        module.learning().enrol(alice, "spanish-a1");
        module.assessment().record(teacher, "calculus-1", new NewGrade(alice.userId(), "Quiz", 9, 10));
        module.assessment().record(teacher, "spanish-a1", new NewGrade(alice.userId(), "Oral", 7, 10));

        assertThat(module.assessment().grades(alice, "spanish-a1"))
                .extracting(g -> g.grade().item())
                .containsExactly("Oral");
        refused(() -> module.assessment().grades(alice, "nope"), NOT_FOUND, "No course");
    }

    @Test
    void grading_needs_the_grade_permission_and_an_enrolled_learner() {
        Principal teacher = Learners.newInstructor();
        refused(
                () -> module.assessment().record(alice, "calculus-1", new NewGrade(bob.userId(), "Quiz", 1, 2)),
                PERMISSION_DENIED,
                "learning:grade");
        refused(
                () -> module.assessment().record(teacher, "calculus-1", new NewGrade(bob.userId(), "Quiz", 1, 2)),
                NOT_FOUND,
                "learner enrolled");
        refused(() -> new NewGrade(bob.userId(), "Quiz", 3, 2), INVALID_ARGUMENT, "points must be 0-2");
    }

    // cart

    @Test
    void the_cart_takes_courses_and_resources_once_each_with_a_total() {
        module.commerce().add(alice, "python-programming", ItemType.COURSE);
        module.commerce().add(alice, "quantum-workbook", ItemType.RESOURCE);

        refused(
                () -> module.commerce().add(alice, "python-programming", ItemType.COURSE),
                CONFLICT,
                "already in your cart");
        var cart = module.commerce().cart(alice);
        assertThat(cart.items()).extracting(CartItem::itemId).containsExactly("python-programming", "quantum-workbook");
        assertThat(cart.totalCents()).isEqualTo(2900 + 1500);
        assertThat(module.commerce().cart(bob).items()).isEmpty();
    }

    @Test
    void the_cart_refuses_unknown_items_closed_courses_and_courses_already_taken() {
        module.learning().enrol(alice, "calculus-1");

        refused(() -> module.commerce().add(alice, "ghost", ItemType.RESOURCE), NOT_FOUND, "No resource");
        refused(() -> module.commerce().add(alice, "astrophysics-intro", ItemType.COURSE), CONFLICT, "not on sale");
        refused(() -> module.commerce().add(alice, "calculus-1", ItemType.COURSE), CONFLICT, "already enrolled");
        refused(() -> ItemType.parse("voucher"), INVALID_ARGUMENT, "course or resource");
    }

    @Test
    void a_line_can_be_removed_only_from_ones_own_cart() {
        module.commerce().add(alice, "spanish-a1", ItemType.COURSE);

        refused(() -> module.commerce().remove(bob, "spanish-a1", ItemType.COURSE), NOT_FOUND, "in your cart");
        module.commerce().remove(alice, "spanish-a1", ItemType.COURSE);
        assertThat(module.commerce().cart(alice).items()).isEmpty();
    }

    // Q&A

    @Test
    void only_enrolled_learners_ask_and_read_a_courses_questions() {
        refused(
                () -> module.engagement().ask(alice, "calculus-1", new NewQuestion("Limits?", "What is a limit?")),
                PERMISSION_DENIED,
                "Enrol first");
        module.learning().enrol(alice, "calculus-1");
        module.learning().enrol(bob, "calculus-1");

        Question asked = module.engagement().ask(alice, "calculus-1", new NewQuestion(" Limits? ", "What is a limit?"));

        assertThat(asked.title()).isEqualTo("Limits?");
        assertThat(module.engagement().questions(bob, "calculus-1"))
                .extracting(Question::id)
                .contains(asked.id());
        refused(() -> module.engagement().questions(Learners.newLearner(), "calculus-1"), PERMISSION_DENIED, "Enrol");
        refused(() -> new NewQuestion("", "body"), INVALID_ARGUMENT, "title must be 1-200");
    }

    // routes

    @Test
    void routes_resolve_with_encoded_parameters_and_refuse_what_they_do_not_take() {
        assertThat(module.navigation()
                        .resolve(alice, "course_detail", Map.of("course_id", "calculus 1"))
                        .path())
                .isEqualTo("/courses/calculus%201");
        assertThat(module.navigation().resolve(alice, "cart", Map.of()).path()).isEqualTo("/cart");
        refused(() -> module.navigation().resolve(alice, "moon", Map.of()), INVALID_ARGUMENT, "known routes: home");
        refused(
                () -> module.navigation().resolve(alice, "course_detail", Map.of()),
                INVALID_ARGUMENT,
                "needs course_id");
        refused(
                () -> module.navigation().resolve(alice, "cart", Map.of("x", "y")),
                INVALID_ARGUMENT,
                "takes no parameters");
    }

    /** Runs {@code attempt} on {@code threads} threads released together; each future says whether it succeeded. */
    static List<Future<Boolean>> race(int threads, Runnable attempt) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    try {
                        attempt.run();
                        return true;
                    } catch (dev.baton.learning.LearningException refused) {
                        return false;
                    }
                }));
            }
            ready.await();
            go.countDown();
        }
        return results;
    }

    static long successes(List<Future<Boolean>> attempts) throws Exception {
        long n = 0;
        for (Future<Boolean> f : attempts) if (f.get()) n++;
        return n;
    }
}
