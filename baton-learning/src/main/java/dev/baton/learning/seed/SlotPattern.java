package dev.baton.learning.seed;

import dev.baton.learning.labs.LabSlot;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a seeded lab's slots repeat: every day for {@code days} days from the day after seeding, at each of
 * {@code times} (UTC), each lasting {@code length} with {@code capacity} seats. Slots are made relative to the day
 * of seeding, so a demo started any day has upcoming slots.
 */
public record SlotPattern(int days, List<LocalTime> times, Duration length, int capacity) {
    public SlotPattern {
        if (days < 1 || days > 366) throw new IllegalArgumentException("slots.days must be 1-366");
        times = List.copyOf(times);
        if (times.isEmpty()) throw new IllegalArgumentException("slots.times must name at least one time");
        Objects.requireNonNull(length, "length");
        if (length.isNegative() || length.isZero()) throw new IllegalArgumentException("slots.minutes must be > 0");
        if (capacity < 1) throw new IllegalArgumentException("slots.capacity must be >= 1");
    }

    /** The slots of {@code labId} from the day after {@code seededAt}. */
    public List<LabSlot> slots(String labId, Instant seededAt) {
        LocalDate first = LocalDate.ofInstant(seededAt, ZoneOffset.UTC).plusDays(1);
        List<LabSlot> slots = new ArrayList<>();
        for (int day = 0; day < days; day++) {
            for (LocalTime time : times) {
                Instant start = first.plusDays(day).atTime(time).toInstant(ZoneOffset.UTC);
                // the id says which slot it is, so seeding again (another instance, a restart) finds it taken
                slots.add(new LabSlot(labId + "@" + start, labId, start, start.plus(length), capacity, 0));
            }
        }
        return slots;
    }
}
