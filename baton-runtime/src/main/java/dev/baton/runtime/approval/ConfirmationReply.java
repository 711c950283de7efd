package dev.baton.runtime.approval;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the user's own message answers a confirmation question, by fixed rules and never by a model: a clear yes, a
 * clear no, or anything else. The message is compared whole, after lower-casing, turning typographic apostrophes
 * into {@code '}, dropping punctuation and emoji, and collapsing spaces ("Yes!", " OK. ", "Go ahead…" all count);
 * "yes, but only the first one" is neither, so it is {@link #OTHER}. The lists are documented in docs/api.md.
 */
public enum ConfirmationReply {
    /** Run the held calls. */
    YES,
    /** Do not run them; the model is told. */
    NO,
    /** Neither: the held calls are denied with the message as the comment, and the message is answered as a new turn. */
    OTHER;

    /** The phrases that approve, as they read once normalised. */
    public static final Set<String> YES_PHRASES = Set.of(
            "yes",
            "y",
            "yeah",
            "yep",
            "yup",
            "sure",
            "ok",
            "okay",
            "k",
            "confirm",
            "confirmed",
            "i confirm",
            "do it",
            "go ahead",
            "go for it",
            "please do",
            "yes please",
            "yes do it",
            "yes go ahead",
            "approve",
            "approved");

    /** The phrases that deny, as they read once normalised. */
    public static final Set<String> NO_PHRASES = Set.of(
            "no",
            "n",
            "nope",
            "nah",
            "cancel",
            "stop",
            "abort",
            "deny",
            "don't",
            "dont",
            "do not",
            "don't do it",
            "do not do it",
            "no thanks",
            "no thank you",
            "no don't",
            "no stop",
            "no cancel",
            "keep it");

    private static final Pattern NOT_A_WORD = Pattern.compile("[^\\p{L}\\p{N}' ]+");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    /** How {@code message} answers the question; null or blank is {@link #OTHER}. */
    public static ConfirmationReply of(String message) {
        if (message == null) return OTHER;
        String text = normalize(message);
        if (YES_PHRASES.contains(text)) return YES;
        if (NO_PHRASES.contains(text)) return NO;
        return OTHER;
    }

    /** The message as the phrase lists are written: lower case, words and apostrophes only, single spaces. */
    static String normalize(String message) {
        String text = message.toLowerCase(Locale.ROOT).replace('\u2019', '\'').replace('\u2018', '\'');
        text = NOT_A_WORD.matcher(SPACES.matcher(text).replaceAll(" ")).replaceAll(" ");
        // quotes around a word ("'yes'") are punctuation too; an apostrophe inside a word (don't) is not
        text = text.replaceAll("(^|\\s)'+|'+(\\s|$)", " ");
        return SPACES.matcher(text).replaceAll(" ").strip();
    }
}
