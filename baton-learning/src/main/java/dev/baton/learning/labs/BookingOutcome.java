package dev.baton.learning.labs;

import java.util.Objects;

/** What asking the database for a seat came to; decided inside one transaction, so concurrent asks never overbook. */
public sealed interface BookingOutcome {

    record Booked(Booking booking) implements BookingOutcome {
        public Booked {
            Objects.requireNonNull(booking, "booking");
        }
    }

    /** The learner already holds a seat in this slot. */
    record AlreadyBooked() implements BookingOutcome {}

    /** Every seat is taken. */
    record Full() implements BookingOutcome {}
}
