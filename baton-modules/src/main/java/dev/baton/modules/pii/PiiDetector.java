package dev.baton.modules.pii;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds e-mail addresses, phone numbers, payment card numbers, US social security numbers and IBANs in text.
 *
 * <p>Patterns find candidates; checks keep the false positives down: card numbers must pass Luhn, IBANs must have
 * their country's length and pass mod-97, SSNs must not use a never-issued area, group or serial, and phone numbers
 * must have a plausible number of digits and not look like a date, a time, an IP address or a grouped amount.
 * Where two findings overlap the more specific kind wins (e-mail, IBAN, card, SSN, then phone).
 *
 * <p>Known limits, by design of a cheap local detector: local phone numbers without an area code
 * ({@code 555-1234}) and bare digit runs without a {@code +} ({@code 4155552671}) are not reported as phone
 * numbers; SSNs are found only in the dashed form; a 10–12 digit reference number grouped like a phone number
 * ({@code 2023-0001-4567}) is reported as one. Thread-safe and stateless.
 */
public final class PiiDetector {

    private static final Pattern EMAIL = Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}"
            + "@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])");

    // 13–19 digits, optionally grouped by single spaces or dashes; not glued to a longer number or a "+" prefix
    private static final Pattern CARD = Pattern.compile("(?<![\\d+-])\\d(?:[ -]?\\d){12,18}(?!\\d)");

    private static final Pattern SSN = Pattern.compile("(?<![\\d-])(\\d{3})-(\\d{2})-(\\d{4})(?![\\d-])");

    private static final Pattern IBAN_START = Pattern.compile("(?<![A-Za-z0-9])[A-Za-z]{2}\\d{2}");

    private static final Pattern PHONE = Pattern.compile("""
            (?<![\\w+/.:@-])
            (?:
              (?:\\+|00)[1-9]\\d{0,2}                # country code
              (?:[\\x20.-]?\\(\\d{1,4}\\))?        # (0) or an area code in brackets
              (?:[\\x20.-]?\\d{1,4}){2,6}
            |
              (?:\\(\\d{2,5}\\)\\x20?|\\d{2,5}[\\x20.-]) # area code: bracketed, or followed by a separator
              \\d{2,8}(?:[\\x20.-]\\d{2,4}){0,4}
            )
            (?![\\w/:@]|[.,-]\\d)
            """, Pattern.COMMENTS);

    private static final Pattern DATE_FIRST =
            Pattern.compile("^(?:\\d{4}[-./]\\d{1,2}[-./]\\d{1,2}|\\d{1,2}[-./]\\d{1,2}[-./]\\d{2,4})(?!\\d)");
    private static final Pattern INTERNATIONAL_00 = Pattern.compile("^00[1-9]");
    private static final Pattern IPV4 = Pattern.compile("^\\d{1,3}(?:\\.\\d{1,3}){3}$");
    private static final Pattern THOUSANDS = Pattern.compile("^\\d{1,3}(?:[ .,]\\d{3})+$");
    private static final Pattern SSN_LIKE = Pattern.compile("^\\d{3,4}-\\d{2}-\\d{4}$");

    /** Most specific first: when findings overlap, the earlier kind wins. */
    private static final List<PiiType> PRECEDENCE =
            List.of(PiiType.EMAIL, PiiType.IBAN, PiiType.CARD, PiiType.SSN, PiiType.PHONE);

    private final Set<PiiType> types;

    private PiiDetector(Set<PiiType> types) {
        this.types = Set.copyOf(types);
    }

    /** A detector for every kind. */
    public static PiiDetector all() {
        return new PiiDetector(EnumSet.allOf(PiiType.class));
    }

    /** A detector for the given kinds only. */
    public static PiiDetector of(Set<PiiType> types) {
        Objects.requireNonNull(types, "types");
        if (types.isEmpty()) {
            throw new IllegalArgumentException("no PII types to detect");
        }
        return new PiiDetector(types);
    }

    public Set<PiiType> types() {
        return types;
    }

    /** The personal data in {@code text}: non-overlapping, in order of position. */
    public List<PiiMatch> find(CharSequence text) {
        List<PiiMatch> accepted = new ArrayList<>();
        for (PiiType type : PRECEDENCE) {
            if (!types.contains(type)) {
                continue;
            }
            for (PiiMatch m : candidates(type, text)) {
                if (accepted.stream().noneMatch(m::overlaps)) {
                    accepted.add(m);
                }
            }
        }
        accepted.sort(Comparator.comparingInt(PiiMatch::start));
        return List.copyOf(accepted);
    }

    /** {@code text} with every finding replaced by its placeholder. */
    public Redaction redact(String text) {
        List<PiiMatch> matches = find(text);
        return new Redaction(Redaction.apply(text, matches), matches);
    }

    private static List<PiiMatch> candidates(PiiType type, CharSequence text) {
        return switch (type) {
            case EMAIL -> simple(EMAIL, PiiType.EMAIL, text);
            case CARD -> cards(text);
            case SSN -> ssns(text);
            case IBAN -> ibans(text);
            case PHONE -> phones(text);
        };
    }

    private static List<PiiMatch> simple(Pattern pattern, PiiType type, CharSequence text) {
        List<PiiMatch> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(new PiiMatch(type, m.start(), m.end()));
        }
        return found;
    }

    private static List<PiiMatch> cards(CharSequence text) {
        List<PiiMatch> found = new ArrayList<>();
        Matcher m = CARD.matcher(text);
        while (m.find()) {
            // the run may hold a card between other numbers ("ref 12 4111 1111 1111 1111 2024"): try each group
            int start = m.start();
            while (start >= 0) {
                int end = validCardEnd(text, start, m.end());
                if (end > 0) {
                    found.add(new PiiMatch(PiiType.CARD, start, end));
                    start = nextGroup(text, end, m.end());
                } else {
                    start = nextGroup(text, start, m.end());
                }
            }
        }
        return found;
    }

    /** The start of the digit group after the one at {@code from}, within the run ending at {@code end}; or -1. */
    private static int nextGroup(CharSequence text, int from, int end) {
        int i = from;
        while (i < end && Character.isDigit(text.charAt(i))) {
            i++;
        }
        return i + 1 < end ? i + 1 : -1;
    }

    /**
     * The end of the longest card number starting at {@code start} and ending at a group boundary within the run
     * (a card followed by, say, a year stays a card), or -1 when none passes Luhn.
     */
    private static int validCardEnd(CharSequence text, int start, int end) {
        for (int e = end; e > start; e--) {
            boolean boundary = e == end || text.charAt(e) == ' ' || text.charAt(e) == '-';
            if (!boundary || !Character.isDigit(text.charAt(e - 1))) {
                continue;
            }
            String digits = digitsOf(text, start, e);
            if (digits.length() < 13) {
                return -1;
            }
            if (digits.length() <= 19 && Checksums.luhn(digits) && !allSame(digits)) {
                return e;
            }
        }
        return -1;
    }

    private static List<PiiMatch> ssns(CharSequence text) {
        List<PiiMatch> found = new ArrayList<>();
        Matcher m = SSN.matcher(text);
        while (m.find()) {
            String area = m.group(1);
            boolean valid = !area.equals("000")
                    && !area.equals("666")
                    && area.charAt(0) != '9'
                    && !m.group(2).equals("00")
                    && !m.group(3).equals("0000");
            if (valid) {
                found.add(new PiiMatch(PiiType.SSN, m.start(), m.end()));
            }
        }
        return found;
    }

    private static List<PiiMatch> ibans(CharSequence text) {
        List<PiiMatch> found = new ArrayList<>();
        Matcher m = IBAN_START.matcher(text);
        int from = 0;
        while (from < text.length() && m.find(from)) {
            from = m.start() + 1;
            String country =
                    text.subSequence(m.start(), m.start() + 2).toString().toUpperCase(Locale.ROOT);
            Integer length = Checksums.IBAN_LENGTHS.get(country);
            if (length == null) {
                continue;
            }
            StringBuilder iban = new StringBuilder(m.group());
            int i = m.end();
            // the rest of the IBAN: letters and digits, optionally grouped by single spaces
            while (iban.length() < length && i < text.length()) {
                char c = text.charAt(i);
                if (Character.isLetterOrDigit(c) && c < 128) {
                    iban.append(c);
                    i++;
                } else if (c == ' ' && i + 1 < text.length() && isAsciiAlnum(text.charAt(i + 1))) {
                    i++;
                } else {
                    break;
                }
            }
            boolean endsHere = i >= text.length() || !isAsciiAlnum(text.charAt(i));
            if (iban.length() == length && endsHere && Checksums.iban(iban.toString())) {
                found.add(new PiiMatch(PiiType.IBAN, m.start(), i));
                from = i;
            }
        }
        return found;
    }

    private static List<PiiMatch> phones(CharSequence text) {
        List<PiiMatch> found = new ArrayList<>();
        Matcher m = PHONE.matcher(text);
        while (m.find()) {
            String candidate = m.group();
            int digits = digitsOf(text, m.start(), m.end()).length();
            boolean international = candidate.startsWith("+")
                    || INTERNATIONAL_00.matcher(candidate).find();
            boolean plausible = international ? digits >= 8 && digits <= 16 : digits >= 10 && digits <= 12;
            if (plausible
                    && !DATE_FIRST.matcher(candidate).find()
                    && !IPV4.matcher(candidate).matches()
                    && !THOUSANDS.matcher(candidate).matches()
                    && !SSN_LIKE.matcher(candidate).matches()) {
                found.add(new PiiMatch(PiiType.PHONE, m.start(), m.end()));
            }
        }
        return found;
    }

    private static String digitsOf(CharSequence text, int start, int end) {
        StringBuilder digits = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                digits.append(c);
            }
        }
        return digits.toString();
    }

    private static boolean allSame(String digits) {
        return digits.chars().distinct().count() == 1;
    }

    private static boolean isAsciiAlnum(char c) {
        return c < 128 && Character.isLetterOrDigit(c);
    }
}
