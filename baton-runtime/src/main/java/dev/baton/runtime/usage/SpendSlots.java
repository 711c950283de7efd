package dev.baton.runtime.usage;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The 15-minute slots of UTC time that spending is totalled in, so a budget check adds up at most a month of slots
 * however many model calls the month had. Every time zone in use today is offset from UTC by a whole number of 15
 * minutes, so any zone's day or month starts at a slot start and is a whole number of slots.
 */
public final class SpendSlots {
    public static final Duration LENGTH = Duration.ofMinutes(15);
    private static final long SECONDS = LENGTH.toSeconds();

    private SpendSlots() {}

    /** The start of the slot {@code instant} lies in. */
    public static Instant startOf(Instant instant) {
        return Instant.ofEpochSecond(Math.floorDiv(instant.getEpochSecond(), SECONDS) * SECONDS);
    }

    public static boolean isStart(Instant instant) {
        return instant.getNano() == 0 && Math.floorMod(instant.getEpochSecond(), SECONDS) == 0;
    }

    /**
     * Whether days in {@code zone} begin at slot starts: true for a fixed offset such as {@code +05:30}, false for one
     * such as {@code +05:53}. Region zones count as aligned: all their offsets of today are (only the local mean times
     * of before the zones were standardised are not).
     */
    public static boolean alignsWith(ZoneId zone) {
        if (!(zone.normalized() instanceof ZoneOffset offset)) return true;
        return offset.getTotalSeconds() % SECONDS == 0;
    }
}
