package dev.baton.learning;

/**
 * The field rules every way into the learning domain shares (REST bodies, tool arguments, seed files), so a value
 * is valid whether it came from a user, a model or an operator. Lengths count Unicode code points, as PostgreSQL's
 * {@code char_length} does.
 */
public final class Texts {
    /** The longest id any learning record has; a longer one cannot exist and is "not found" without a query. */
    public static final int MAX_ID = 64;

    private Texts() {}

    /** Trimmed, 1 to {@code max} characters. */
    public static String required(String raw, String field, int max) {
        if (raw == null) throw LearningException.invalidArgument(field + " is required");
        String text = raw.strip();
        int length = text.codePointCount(0, text.length());
        if (length < 1 || length > max) {
            throw LearningException.invalidArgument(
                    field + " must be 1-" + max + " characters after trimming (got " + length + ")");
        }
        return text;
    }

    /** Trimmed; blank means none (null); at most {@code max} characters. */
    public static String optional(String raw, String field, int max) {
        if (raw == null || raw.isBlank()) return null;
        return required(raw, field, max);
    }

    /** Whether {@code id} could name a record at all (so a nonsense id never reaches the database). */
    public static boolean plausibleId(String id) {
        return id != null && !id.isBlank() && id.length() <= MAX_ID;
    }
}
