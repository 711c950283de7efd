package dev.baton.learning.library;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one form names, aliases and queries are compared in: lower case, accents removed, anything but letters and
 * digits as single spaces. Stored terms and queries are normalised alike, so "Schrödinger  Equation!" and
 * "schrodinger equation" are the same text to the database; the fuzzy matching itself is the database's.
 */
public final class TopicText {
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    private TopicText() {}

    public static String normalize(String text) {
        if (text == null) return "";
        String plain =
                MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("");
        return NOT_WORD.matcher(plain.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
    }
}
