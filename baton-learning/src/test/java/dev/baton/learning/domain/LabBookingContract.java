package dev.baton.learning.domain;

import static dev.baton.core.domain.DomainException.Kind.CONFLICT;
import static dev.baton.core.domain.DomainException.Kind.INVALID_ARGUMENT;
import static dev.baton.core.domain.DomainException.Kind.NOT_FOUND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.auth.Principal;
import dev.baton.learning.labs.Booking;
import dev.baton.learning.labs.Lab;
import dev.baton.learning.labs.LabSlot;
import dev.baton.learning.store.JdbcLabRepository;
import dev.baton.learning.support.Learners;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Lab bookings over a real database, run once per dialect: capacity and time checks, one seat per learner per slot,
 * and races between real threads released together by a latch.
 */
abstract class LabBookingContract extends LearningDatabaseTest {
    /** The first demo slot of the physics lab: the day after {@link #NOW} at 10:00 UTC. */
    static final String FIRST_PHYSICS_SLOT = "2026-11-19T10:00:00Z";

    @Test
    void the_demo_labs_have_upcoming_slots_from_tomorrow() {
        Principal alice = Learners.newLearner();

        assertThat(module.labs().labs(alice)).extracting(Lab::id).contains("physics-lab", "chemistry-lab");
        List<LabSlot> slots = module.labs().upcomingSlots(alice, "physics-lab");
        assertThat(slots.getFirst().startsAt()).isEqualTo(Instant.parse(FIRST_PHYSICS_SLOT));
        assertThat(slots.getFirst().capacity()).isEqualTo(3);
        assertThat(slots).extracting(LabSlot::startsAt).isSorted();
    }

    @Test
    void a_booking_takes_a_seat_and_shows_among_the_learners_bookings() {
        String lab = newLab(2);
        Principal alice = Learners.newLearner();

        Booking booking = module.labs().book(alice, lab, "2026-11-20T09:00:00Z");

        assertThat(booking.startsAt()).isEqualTo(Instant.parse("2026-11-20T09:00:00Z"));
        assertThat(module.labs().bookings(alice)).extracting(Booking::id).containsExactly(booking.id());
        assertThat(module.labs().upcomingSlots(alice, lab).getFirst().seatsLeft())
                .isEqualTo(1);
        assertThat(module.labs().bookings(Learners.newLearner())).isEmpty();
    }

    @Test
    void a_start_in_another_offset_names_the_same_slot() {
        String lab = newLab(2);

        Booking booking = module.labs().book(Learners.newLearner(), lab, "2026-11-20T10:00:00+01:00");

        assertThat(booking.startsAt()).isEqualTo(Instant.parse("2026-11-20T09:00:00Z"));
    }

    @Test
    void booking_the_same_slot_twice_is_a_conflict() {
        String lab = newLab(3);
        Principal alice = Learners.newLearner();
        module.labs().book(alice, lab, "2026-11-20T09:00:00Z");

        refused(() -> module.labs().book(alice, lab, "2026-11-20T09:00:00Z"), CONFLICT, "already booked");
        assertThat(module.labs().upcomingSlots(alice, lab).getFirst().seatsLeft())
                .isEqualTo(2);
    }

    @Test
    void a_full_slot_refuses_the_next_learner() {
        String lab = newLab(1);
        module.labs().book(Learners.newLearner(), lab, "2026-11-20T09:00:00Z");

        refused(() -> module.labs().book(Learners.newLearner(), lab, "2026-11-20T09:00:00Z"), CONFLICT, "is full");
    }

    @Test
    void a_slot_that_has_started_cannot_be_booked() {
        String lab = newLab(5);
        clock.set(Instant.parse("2026-11-20T09:00:00Z"));

        refused(
                () -> module.labs().book(Learners.newLearner(), lab, "2026-11-20T09:00:00Z"),
                CONFLICT,
                "already started");
    }

    @Test
    void unknown_labs_and_starts_are_not_found_and_a_bad_start_is_invalid() {
        String lab = newLab(1);
        Principal alice = Learners.newLearner();

        refused(() -> module.labs().book(alice, "no-lab", "2026-11-20T09:00:00Z"), NOT_FOUND, "No lab");
        refused(() -> module.labs().book(alice, lab, "2026-11-20T09:30:00Z"), NOT_FOUND, "slot of lab");
        refused(() -> module.labs().book(alice, lab, "tomorrow at nine"), INVALID_ARGUMENT, "ISO-8601");
        refused(() -> module.labs().book(alice, lab, "2026-11-20T09:00:00"), INVALID_ARGUMENT, "with an offset");
    }

    @Test
    void two_learners_racing_for_the_last_seat_one_wins() throws Exception {
        String lab = newLab(1);

        List<Principal> racers = List.of(Learners.newLearner(), Learners.newLearner());
        List<Future<Boolean>> attempts = race(racers, lab);

        assertThat(PlatformServicesContract.successes(attempts)).isEqualTo(1);
        assertThat(seatsLeft(lab)).isZero();
        assertThat(racers.stream()
                        .mapToInt(p -> module.labs().bookings(p).size())
                        .sum())
                .isEqualTo(1);
    }

    @Test
    void ten_learners_racing_for_three_seats_exactly_three_win() throws Exception {
        String lab = newLab(3);
        List<Principal> racers = new ArrayList<>();
        for (int i = 0; i < 10; i++) racers.add(Learners.newLearner());

        List<Future<Boolean>> attempts = race(racers, lab);

        assertThat(PlatformServicesContract.successes(attempts)).isEqualTo(3);
        assertThat(seatsLeft(lab)).isZero();
        assertThat(racers.stream()
                        .mapToInt(p -> module.labs().bookings(p).size())
                        .sum())
                .isEqualTo(3);
    }

    @Test
    void one_learner_racing_themself_gets_one_seat() throws Exception {
        String lab = newLab(5);
        Principal alice = Learners.newLearner();

        List<Future<Boolean>> attempts = race(List.of(alice, alice, alice), lab);

        assertThat(PlatformServicesContract.successes(attempts)).isEqualTo(1);
        assertThat(seatsLeft(lab)).isEqualTo(4);
        assertThat(module.labs().bookings(alice)).hasSize(1);
    }

    private List<Future<Boolean>> race(List<Principal> racers, String lab) throws InterruptedException {
        var next = new java.util.concurrent.atomic.AtomicInteger();
        return PlatformServicesContract.race(
                racers.size(),
                () -> module.labs().book(racers.get(next.getAndIncrement()), lab, "2026-11-20T09:00:00Z"));
    }

    private int seatsLeft(String lab) {
        return module.labs()
                .upcomingSlots(Learners.newLearner(), lab)
                .getFirst()
                .seatsLeft();
    }

    /** A lab of its own with one slot on 2026-11-20 at 09:00 UTC, so tests never share seats. */
    private String newLab(int capacity) {
        String id = "lab-" + UUID.randomUUID().toString().substring(0, 8);
        Instant start = Instant.parse("2026-11-20T09:00:00Z");
        new JdbcLabRepository(opened.database())
                .seed(
                        List.of(new Lab(id, "Lab " + id, null, "")),
                        List.of(new LabSlot(
                                id + "@" + start, id, start, start.plus(Duration.ofHours(1)), capacity, 0)));
        return id;
    }
}
