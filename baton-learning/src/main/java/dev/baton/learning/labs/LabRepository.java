package dev.baton.learning.labs;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where labs, their slots and bookings are kept. */
public interface LabRepository {

    List<Lab> labs();

    Optional<Lab> lab(String id);

    /** The lab's slots that start at or after {@code from}, soonest first, at most {@code limit}. */
    List<LabSlot> slots(String labId, Instant from, int limit);

    /** The lab's slot that starts exactly at {@code startsAt}. */
    Optional<LabSlot> slot(String labId, Instant startsAt);

    /**
     * Takes a seat in the slot for the booking's learner, atomically: refused when the learner already holds one or
     * no seat is left, even when other learners book the same slot at the same moment.
     */
    BookingOutcome book(Booking booking);

    /** The learner's bookings of slots ending after {@code now}, soonest first, at most {@code limit}. */
    List<Booking> bookings(Learner learner, Instant now, int limit);

    /**
     * Stores the labs and slots that are not there yet (by id, and a slot also by lab and start); safe when
     * several instances seed at once.
     */
    void seed(List<Lab> labs, List<LabSlot> slots);
}
