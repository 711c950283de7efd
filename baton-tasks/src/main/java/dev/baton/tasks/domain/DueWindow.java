package dev.baton.tasks.domain;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.Objects;

/**
 * A due-date filter. Days and weeks are UTC calendar days; a week is Monday to Sunday (ISO).
 * Overdue means due before now and still open.
 */
public sealed interface DueWindow {

    record Today() implements DueWindow {}

    record ThisWeek() implements DueWindow {}

    record Overdue() implements DueWindow {}

    record OnDate(LocalDate date) implements DueWindow {
        public OnDate {
            Objects.requireNonNull(date, "date");
        }
    }

    /**
     * Reads "today", "this_week", "overdue" or a date YYYY-MM-DD.
     *
     * @throws TaskException invalid_argument for anything else
     */
    static DueWindow parse(String value) {
        if (value == null) throw TaskException.invalidArgument("due must not be null");
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "today" -> new Today();
            case "this_week" -> new ThisWeek();
            case "overdue" -> new Overdue();
            default -> {
                try {
                    yield new OnDate(TaskRules.date(value, "due"));
                } catch (TaskException notADate) {
                    throw TaskException.invalidArgument("due must be one of today, this_week, overdue"
                            + " or a date YYYY-MM-DD (got '" + TaskRules.abbreviate(value) + "')");
                }
            }
        };
    }

    /** The half-open range [from, before) of due instants this window covers at {@code now}. */
    default DueRange range(Instant now) {
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        return switch (this) {
            case Today t -> DueRange.days(today, today.plusDays(1));
            case ThisWeek w -> {
                LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
                yield DueRange.days(monday, monday.plusWeeks(1));
            }
            case Overdue o -> new DueRange(null, now);
            case OnDate d -> DueRange.days(d.date(), d.date().plusDays(1));
        };
    }

    /** Whether only open tasks can match (an overdue task is by definition not done). */
    default boolean openOnly() {
        return this instanceof Overdue;
    }

    /**
     * A half-open range of due instants; a null bound is unbounded.
     */
    record DueRange(Instant from, Instant before) {
        static DueRange days(LocalDate first, LocalDate end) {
            return new DueRange(
                    first.atStartOfDay(ZoneOffset.UTC).toInstant(),
                    end.atStartOfDay(ZoneOffset.UTC).toInstant());
        }
    }
}
