package dev.baton.learning.labs;

import java.time.Instant;
import java.util.Objects;

/**
 * A bookable period of a lab: at most {@code capacity} learners, {@code booked} of them taken. A slot is named by
 * its lab and start time, which is how a learner (or a model) asks for it.
 */
public record LabSlot(String id, String labId, Instant startsAt, Instant endsAt, int capacity, int booked) {
    public LabSlot {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(labId, "labId");
        Objects.requireNonNull(startsAt, "startsAt");
        Objects.requireNonNull(endsAt, "endsAt");
        if (!endsAt.isAfter(startsAt)) throw new IllegalArgumentException("a slot must end after it starts");
        if (capacity < 1) throw new IllegalArgumentException("capacity must be >= 1");
        if (booked < 0 || booked > capacity) throw new IllegalArgumentException("booked must be 0..capacity");
    }

    public int seatsLeft() {
        return capacity - booked;
    }
}
