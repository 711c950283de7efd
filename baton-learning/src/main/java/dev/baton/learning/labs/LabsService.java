package dev.baton.learning.labs;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.Texts;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * Labs and their slots: a learner books a seat in a slot that has not started and still has one, at most one seat
 * per slot. The capacity holds however many learners book at once (see {@link LabRepository#book}).
 */
public final class LabsService {
    /** A listing returns at most this many slots or bookings. */
    public static final int MAX_LISTED = 100;

    private final LabRepository repository;
    private final Clock clock;

    public LabsService(LabRepository repository, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public List<Lab> labs(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return repository.labs();
    }

    /** The lab's slots that have not started yet, soonest first. */
    public List<LabSlot> upcomingSlots(Principal principal, String labId) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        Lab lab = find(labId);
        return repository.slots(lab.id(), clock.instant(), MAX_LISTED);
    }

    /** The caller's bookings that have not ended, soonest first. */
    public List<Booking> bookings(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return repository.bookings(Learner.of(principal), clock.instant(), MAX_LISTED);
    }

    /**
     * Books the caller a seat in the lab's slot starting at {@code slotStart}.
     *
     * @param slotStart an ISO-8601 date-time with an offset, e.g. {@code 2026-11-21T10:00:00Z}
     * @throws LearningException invalid_argument for a start that is not such a date-time; not_found for an unknown
     *     lab or a start no slot of the lab has; conflict when the slot has started, is full, or the caller already
     *     booked it
     */
    public Booking book(Principal principal, String labId, String slotStart) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        Instant start = parseStart(slotStart);
        Lab lab = find(labId);
        LabSlot slot = repository
                .slot(lab.id(), start)
                .orElseThrow(() -> LearningException.notFound("slot of lab '" + lab.name() + "' starting", slotStart));
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        if (!slot.startsAt().isAfter(now)) {
            throw LearningException.conflict("That slot of '" + lab.name() + "' has already started.");
        }
        return switch (repository.book(Booking.of(Ids.newId(), Learner.of(principal), slot, now))) {
            case BookingOutcome.Booked booked -> booked.booking();
            case BookingOutcome.AlreadyBooked already ->
                throw LearningException.conflict("You have already booked that slot of '" + lab.name() + "'.");
            case BookingOutcome.Full full ->
                throw LearningException.conflict("That slot of '" + lab.name() + "' is full.");
        };
    }

    private Lab find(String labId) {
        if (!Texts.plausibleId(labId)) throw LearningException.notFound("lab", labId);
        return repository.lab(labId).orElseThrow(() -> LearningException.notFound("lab", labId));
    }

    private static Instant parseStart(String value) {
        if (value == null || value.isBlank()) throw LearningException.invalidArgument("the slot's start is required");
        try {
            return OffsetDateTime.parse(value.strip()).toInstant();
        } catch (DateTimeException e) {
            throw LearningException.invalidArgument(
                    "the slot's start must be an ISO-8601 date-time with an offset, e.g."
                            + " 2026-11-21T10:00:00Z (got '" + LearningException.echo(value) + "')");
        }
    }
}
