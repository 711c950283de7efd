package dev.baton.core.context;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * Renders the system message: delimited sections in a fixed order (DESIGN §4), then the current date and time and
 * who the model is talking to.
 */
public final class SystemPrompt {
    public static final String CORE_BEHAVIOR = "## Core Behavior";
    public static final String ASSIGNMENT_CONTEXT = "## Assignment Context";
    public static final String CONSTRAINTS = "## Constraints";
    public static final String ADDITIONAL_GUIDANCE = "## Additional Guidance";
    /** Last of the sections: data read from outside, after every instruction it must not override. */
    public static final String ATTACHED_RESOURCES = "## Attached Resources";

    /** The English day names, looked up once: the locale lookup behind {@code getDisplayName} costs every turn. */
    private static final String[] DAY_NAMES = Arrays.stream(DayOfWeek.values())
            .map(d -> d.getDisplayName(TextStyle.FULL, Locale.ENGLISH))
            .toArray(String[]::new);

    private static final Pattern LINE_BREAKS = Pattern.compile("[\\r\\n\\t]+");

    /** The line of the last second asked for: every turn within a second shares it instead of formatting it again. */
    private static final AtomicReference<DateLine> LAST_DATE_LINE =
            new AtomicReference<>(new DateLine(Long.MIN_VALUE, ""));

    private record DateLine(long epochSecond, String text) {}

    private SystemPrompt() {}

    /**
     * @param displayName the user's name from their token; null or blank leaves the line out
     */
    public static String render(String behavior, PromptSections sections, Instant now, String displayName) {
        return parts(behavior, sections, now, displayName).text();
    }

    /**
     * The system message in two parts: the sections, the same turn after turn, and the closing lines with the time and
     * the user's name, which change every second. The sections end in a blank line, where a tokeniser splits anyway,
     * so the parts' token counts add up to the whole message's and the sections' count can be cached.
     */
    public record Parts(String sections, String closing) {
        public String text() {
            return sections + closing;
        }
    }

    /** As {@link #render}, in its two parts. */
    public static Parts parts(String behavior, PromptSections sections, Instant now, String displayName) {
        // sized for the usual prompt at once, rather than doubled from 16 characters up to it turn after turn
        StringBuilder text = new StringBuilder(256
                + length(behavior)
                + length(sections.assignmentContext())
                + length(sections.constraints())
                + length(sections.attachedResources()));
        section(text, CORE_BEHAVIOR, behavior);
        section(text, ASSIGNMENT_CONTEXT, sections.assignmentContext());
        section(text, CONSTRAINTS, sections.constraints());
        section(text, ADDITIONAL_GUIDANCE, String.join("\n\n", sections.additionalGuidance()));
        section(text, ATTACHED_RESOURCES, sections.attachedResources());
        StringBuilder closing = new StringBuilder(dateLine(now));
        if (displayName != null && !displayName.isBlank()) {
            // the name comes from a token, not from us: keep it on one line so it cannot open a section of its own
            closing.append('\n')
                    .append("The user's name is ")
                    .append(oneLine(displayName))
                    .append('.');
        }
        return new Parts(text.toString(), closing.toString());
    }

    /** "Current date and time: 2026-11-21T10:15:30Z (Saturday, UTC)". */
    public static String dateLine(Instant now) {
        DateLine last = LAST_DATE_LINE.get();
        if (last.epochSecond() == now.getEpochSecond()) return last.text();
        DateLine line = new DateLine(now.getEpochSecond(), formatDateLine(now));
        LAST_DATE_LINE.set(line);
        return line.text();
    }

    private static String formatDateLine(Instant now) {
        Instant seconds = now.truncatedTo(ChronoUnit.SECONDS);
        DayOfWeek day = seconds.atOffset(ZoneOffset.UTC).getDayOfWeek();
        return "Current date and time: " + seconds + " (" + DAY_NAMES[day.ordinal()] + ", UTC)";
    }

    private static void section(StringBuilder text, String heading, String body) {
        if (body == null || body.isBlank()) {
            return;
        }
        // the stripped range, not a stripped copy
        int start = 0, end = body.length();
        while (start < end && Character.isWhitespace(body.charAt(start))) start++;
        while (end > start && Character.isWhitespace(body.charAt(end - 1))) end--;
        text.append(heading).append("\n").append(body, start, end).append("\n\n");
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }

    private static String oneLine(String s) {
        String flat = LINE_BREAKS.matcher(s).replaceAll(" ").replace("#", "").strip();
        return flat.length() > 100 ? flat.substring(0, 100) : flat;
    }
}
