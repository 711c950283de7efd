package dev.baton.core.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one duration syntax of Baton's settings and scripts: a number with a unit ({@code 250ms}, {@code 30s},
 * {@code 1.5s}, {@code 5m}, {@code 1h}, {@code 1d}) or ISO-8601 ({@code PT30S}, {@code P1D}).
 *
 * <p>A bare number is refused rather than read in some unit: {@code timeout: 30} means seconds to one reader and
 * milliseconds to the next.
 */
public final class Durations {

    private static final Pattern NUMBER = Pattern.compile("\\+?\\d+(?:\\.\\d+)?");
    private static final Pattern WITH_UNIT = Pattern.compile("(\\+?\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)");
    private static final Pattern ISO = Pattern.compile("\\+?p", Pattern.CASE_INSENSITIVE);
    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
    private static final String EXAMPLES = "250ms, 30s, 5m, 1h, 1d or ISO-8601 such as PT30S";

    private Durations() {}

    /**
     * Reads a duration, zero included.
     *
     * @param text what the setting says, e.g. {@code 30s}
     * @param where the setting's name for the error message, e.g. {@code llmTimeout} or
     *     {@code rules[2].pacing.firstTokenLatency}
     * @throws IllegalArgumentException naming {@code where} when {@code text} is empty, a bare number, negative,
     *     not a duration, or out of range
     */
    public static Duration parse(String text, String where) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("'" + where + "' is empty; give a duration such as " + EXAMPLES);
        }
        String quoted = "'" + where + ": " + trimmed + "'";
        if (trimmed.startsWith("-")) {
            throw new IllegalArgumentException(quoted + " must not be negative");
        }
        if (NUMBER.matcher(trimmed).matches()) {
            throw new IllegalArgumentException(quoted + " needs a unit, e.g. " + trimmed + "s or 250ms");
        }
        Duration duration = read(trimmed, quoted);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(quoted + " must not be negative");
        }
        return duration;
    }

    private static Duration read(String text, String quoted) {
        var withUnit = WITH_UNIT.matcher(text.toLowerCase(Locale.ROOT));
        if (withUnit.matches()) {
            BigDecimal nanos =
                    new BigDecimal(withUnit.group(1)).multiply(BigDecimal.valueOf(nanosPer(withUnit.group(2))));
            if (nanos.stripTrailingZeros().scale() > 0) {
                throw new IllegalArgumentException(quoted + " is finer than a nanosecond");
            }
            BigDecimal[] secondsAndNanos = nanos.divideAndRemainder(NANOS_PER_SECOND);
            try {
                return Duration.ofSeconds(secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValue());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(quoted + " is too long");
            }
        }
        if (ISO.matcher(text).lookingAt()) {
            try {
                return Duration.parse(text.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(quoted
                        + " is not an ISO-8601 duration; use days, hours, minutes and seconds, e.g. P1DT12H or PT0.5S"
                        + " (months and years have no fixed length)");
            }
        }
        throw new IllegalArgumentException(quoted + " is not a duration; use e.g. " + EXAMPLES);
    }

    private static long nanosPer(String unit) {
        return switch (unit) {
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> throw new IllegalStateException("unit " + unit);
        };
    }
}
