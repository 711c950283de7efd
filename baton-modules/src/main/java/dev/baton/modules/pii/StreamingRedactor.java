package dev.baton.modules.pii;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Redacts a streamed answer chunk by chunk so that personal data split across chunks never leaves, even in part.
 *
 * <p>It holds back the end of what arrived: the last {@value #HOLD_BACK} characters (longer than any phone, card,
 * SSN or spaced IBAN) and the trailing word (an e-mail address has no spaces, so one still arriving is in it), and
 * never releases text that a finding straddles. Everything before that is settled — more text cannot turn it into
 * personal data — and is released redacted. The cost is that the client sees the answer about that much later.
 *
 * <p>One per streamed answer; not thread-safe (the turn feeds chunks from one thread).
 */
public final class StreamingRedactor {

    /** Characters held back: more than the longest spaced-out card, phone number or IBAN. */
    static final int HOLD_BACK = 48;

    /** The longest e-mail address (RFC 5321 path limit): longer trailing words are not held whole. */
    static final int MAX_WORD_HELD = 254;

    /** Released characters kept in front of the pending text, so look-behinds see what preceded it. */
    private static final int CONTEXT = 16;

    private final PiiDetector detector;
    private final StringBuilder pending = new StringBuilder();
    private final List<PiiType> found = new ArrayList<>();
    /** The first {@code released} characters of {@link #pending} were already sent (kept as context only). */
    private int released;

    public StreamingRedactor(PiiDetector detector) {
        this.detector = Objects.requireNonNull(detector, "detector");
    }

    /** Takes the next chunk; returns what may be sent now (redacted, possibly empty). */
    public String accept(String chunk) {
        pending.append(chunk);
        // the word still arriving is held whole, up to the longest possible e-mail address: a longer word (a URL,
        // base64) cannot be one address, and holding it all would make every chunk rescan it
        int wordStart = Math.max(trailingWordStart(), pending.length() - MAX_WORD_HELD);
        int cut = Math.min(pending.length() - HOLD_BACK, wordStart);
        if (cut <= released) {
            return "";
        }
        List<PiiMatch> matches = detector.find(pending);
        for (PiiMatch m : matches) {
            if (m.start() < cut && m.end() > cut) {
                cut = m.start();
            }
        }
        if (cut <= released) {
            return "";
        }
        String out = release(matches, cut);
        int keep = Math.min(CONTEXT, cut);
        pending.delete(0, cut - keep);
        released = keep;
        return out;
    }

    /** The end of the answer: returns the rest, redacted. */
    public String finish() {
        String out = release(detector.find(pending), pending.length());
        pending.setLength(0);
        released = 0;
        return out;
    }

    /** The kinds found in what was released so far, once per finding, in order. */
    public List<PiiType> found() {
        return List.copyOf(found);
    }

    private String release(List<PiiMatch> matches, int cut) {
        List<PiiMatch> inside = new ArrayList<>();
        for (PiiMatch m : matches) {
            if (m.end() <= released || m.start() >= cut) {
                continue;
            }
            // a finding reaching back into released text (rare: it grew leftwards) is still cut off here
            inside.add(new PiiMatch(m.type(), Math.max(m.start(), released) - released, m.end() - released));
            found.add(m.type());
        }
        return Redaction.apply(pending.subSequence(released, cut), inside);
    }

    private int trailingWordStart() {
        int i = pending.length();
        while (i > 0 && !Character.isWhitespace(pending.charAt(i - 1))) {
            i--;
        }
        return i;
    }
}
