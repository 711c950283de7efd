package dev.baton.modules.pii;

import java.util.Objects;

/**
 * One piece of personal data found in a text: {@code text.substring(start, end)} is of {@code type}.
 *
 * @param start index of the first character
 * @param end index after the last character
 */
public record PiiMatch(PiiType type, int start, int end) {
    public PiiMatch {
        Objects.requireNonNull(type, "type");
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("bad span " + start + ".." + end);
        }
    }

    boolean overlaps(PiiMatch other) {
        return start < other.end && other.start < end;
    }

    PiiMatch shift(int offset) {
        return new PiiMatch(type, start + offset, end + offset);
    }
}
