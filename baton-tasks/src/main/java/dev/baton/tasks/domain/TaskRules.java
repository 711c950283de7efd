package dev.baton.tasks.domain;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The field rules every way into the domain shares (records, JSON bodies, tool arguments), so a task is valid
 * whether it came from the REST API or from a model.
 *
 * <p>Lengths count Unicode code points, as PostgreSQL's {@code char_length} does, not UTF-16 units.
 */
public final class TaskRules {
    public static final int MAX_TITLE = 200;
    public static final int MAX_DESCRIPTION = 2000;
    public static final int MAX_TAGS = 10;
    public static final int MAX_TAG = 40;

    /** The time of day a bare date (YYYY-MM-DD) stands for: the task is due by the end of that day, in UTC. */
    public static final LocalTime END_OF_DAY = LocalTime.of(23, 59, 59);

    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final int MAX_DATE_TEXT = 64;

    private TaskRules() {}

    /** Trims a title and checks it is 1-200 characters. */
    public static String title(String raw) {
        if (raw == null) throw TaskException.invalidArgument("title is required");
        String title = raw.strip();
        int length = length(title);
        if (length < 1 || length > MAX_TITLE) {
            throw TaskException.invalidArgument(
                    "title must be 1-" + MAX_TITLE + " characters after trimming (got " + length + ")");
        }
        return title;
    }

    /** Trims a description; blank means none (null). At most 2000 characters. */
    public static String description(String raw) {
        if (raw == null || raw.isBlank()) return null;
        String description = raw.strip();
        int length = length(description);
        if (length > MAX_DESCRIPTION) {
            throw TaskException.invalidArgument(
                    "description must be at most " + MAX_DESCRIPTION + " characters (got " + length + ")");
        }
        return description;
    }

    /**
     * Normalises tags: trimmed, lower-cased (tags match case-insensitively), duplicates dropped, order kept.
     * At most 10 tags of 1-40 characters each.
     */
    public static List<String> tags(List<String> raw) {
        if (raw == null) return List.of();
        LinkedHashSet<String> tags = new LinkedHashSet<>();
        for (String value : raw) {
            tags.add(tag(value));
        }
        if (tags.size() > MAX_TAGS) {
            throw TaskException.invalidArgument("at most " + MAX_TAGS + " tags are allowed (got " + tags.size() + ")");
        }
        return List.copyOf(new ArrayList<>(tags));
    }

    /** Normalises one tag the way {@link #tags} does, so a filter matches exactly the stored form. */
    public static String tag(String raw) {
        if (raw == null) throw TaskException.invalidArgument("a tag must not be null");
        String tag = raw.strip().toLowerCase(Locale.ROOT);
        int length = length(tag);
        if (length < 1 || length > MAX_TAG) {
            throw TaskException.invalidArgument("each tag must be 1-" + MAX_TAG + " characters (got " + length + ")");
        }
        return tag;
    }

    /**
     * Reads a due date: an ISO date {@code YYYY-MM-DD} means the end of that day (23:59:59) in UTC; an ISO
     * date-time with an offset ({@code 2026-11-21T17:00:00Z}, {@code ...+02:00}) is taken as is; an ISO date-time
     * without an offset is read as UTC. The result is truncated to milliseconds.
     */
    public static Instant dueDate(String raw) {
        if (raw == null || raw.isBlank()) throw TaskException.invalidArgument("dueDate must not be empty");
        String text = raw.strip();
        if (text.length() <= MAX_DATE_TEXT) {
            try {
                Instant due = parseDue(text);
                int year = due.atOffset(ZoneOffset.UTC).getYear();
                if (year >= 1 && year <= 9999) return due.truncatedTo(ChronoUnit.MILLIS);
            } catch (DateTimeException notIso) {
                // fall through to the one message that says what is accepted
            }
        }
        throw TaskException.invalidArgument("dueDate must be an ISO date (YYYY-MM-DD) or date-time"
                + " (e.g. 2026-11-21T17:00:00Z), got '" + abbreviate(text) + "'");
    }

    /** Reads a calendar date {@code YYYY-MM-DD}. */
    public static LocalDate date(String raw, String field) {
        if (raw != null && DATE.matcher(raw.strip()).matches()) {
            try {
                return LocalDate.parse(raw.strip());
            } catch (DateTimeException notADay) {
                // e.g. 2026-02-30: same message as any other bad date
            }
        }
        throw TaskException.invalidArgument(field + " must be a date YYYY-MM-DD, got '" + abbreviate(raw) + "'");
    }

    private static Instant parseDue(String text) {
        if (DATE.matcher(text).matches()) {
            return LocalDate.parse(text).atTime(END_OF_DAY).toInstant(ZoneOffset.UTC);
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeException noOffset) {
            return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
        }
    }

    static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    static String abbreviate(String value) {
        if (value == null) return "null";
        return value.length() <= MAX_DATE_TEXT ? value : value.substring(0, MAX_DATE_TEXT) + "...";
    }
}
