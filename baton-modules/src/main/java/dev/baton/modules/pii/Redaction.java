package dev.baton.modules.pii;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A text with its personal data replaced by placeholders.
 *
 * @param text the redacted text
 * @param matches what was replaced, as positions in the original text
 */
public record Redaction(String text, List<PiiMatch> matches) {
    public Redaction {
        Objects.requireNonNull(text, "text");
        matches = List.copyOf(matches);
    }

    public boolean found() {
        return !matches.isEmpty();
    }

    /** How many findings of each kind, in the kinds' declaration order. */
    public Map<PiiType, Integer> counts() {
        Map<PiiType, Integer> counts = new EnumMap<>(PiiType.class);
        matches.forEach(m -> counts.merge(m.type(), 1, Integer::sum));
        return counts;
    }

    /** {@code text} with each of the non-overlapping, ordered {@code matches} replaced by its placeholder. */
    static String apply(CharSequence text, List<PiiMatch> matches) {
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        for (PiiMatch m : matches) {
            out.append(text, at, m.start()).append(m.type().placeholder());
            at = m.end();
        }
        return out.append(text, at, text.length()).toString();
    }
}
