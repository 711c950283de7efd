package dev.baton.learning.labs;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.Objects;

/** One learner's seat in one lab slot. */
public record Booking(
        String id, Learner learner, String labId, String slotId, Instant startsAt, Instant endsAt, Instant bookedAt) {
    public Booking {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(labId, "labId");
        Objects.requireNonNull(slotId, "slotId");
        Objects.requireNonNull(startsAt, "startsAt");
        Objects.requireNonNull(endsAt, "endsAt");
        Objects.requireNonNull(bookedAt, "bookedAt");
    }

    public static Booking of(String id, Learner learner, LabSlot slot, Instant now) {
        return new Booking(id, learner, slot.labId(), slot.id(), slot.startsAt(), slot.endsAt(), now);
    }
}
