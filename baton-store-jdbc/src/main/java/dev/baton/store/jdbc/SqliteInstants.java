package dev.baton.store.jdbc;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Instants as SQLite keeps them: ISO-8601 UTC text with exactly six fraction digits ({@code 2026-11-21T10:15:30.123456Z}),
 * so text order is time order. Written and read by hand for years 0000–9999, because every turn writes and reads
 * dozens of them and {@link DateTimeFormatter} and {@link Instant#parse} showed among a turn's top frames; anything
 * else goes through them.
 */
final class SqliteInstants {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final int LENGTH = "2026-11-21T10:15:30.123456Z".length();

    private SqliteInstants() {}

    /** {@code instant}, already truncated to the microsecond. */
    static String format(Instant instant) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
        if (t.getYear() < 0 || t.getYear() > 9999) return FORMAT.format(instant);
        char[] c = new char[LENGTH];
        digits(c, 0, t.getYear(), 4);
        c[4] = '-';
        digits(c, 5, t.getMonthValue(), 2);
        c[7] = '-';
        digits(c, 8, t.getDayOfMonth(), 2);
        c[10] = 'T';
        digits(c, 11, t.getHour(), 2);
        c[13] = ':';
        digits(c, 14, t.getMinute(), 2);
        c[16] = ':';
        digits(c, 17, t.getSecond(), 2);
        c[19] = '.';
        digits(c, 20, t.getNano() / 1000, 6);
        c[26] = 'Z';
        return new String(c);
    }

    static Instant parse(String text) {
        if (text.length() != LENGTH
                || text.charAt(4) != '-'
                || text.charAt(7) != '-'
                || text.charAt(10) != 'T'
                || text.charAt(13) != ':'
                || text.charAt(16) != ':'
                || text.charAt(19) != '.'
                || text.charAt(26) != 'Z') {
            return Instant.parse(text);
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        int hour = number(text, 11, 2);
        int minute = number(text, 14, 2);
        int second = number(text, 17, 2);
        int micros = number(text, 20, 6);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || micros < 0) {
            return Instant.parse(text);
        }
        // LocalDateTime.of checks the ranges (month 13, February 30th) and throws like Instant.parse would
        return LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000)
                .toInstant(ZoneOffset.UTC);
    }

    private static void digits(char[] into, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            into[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The decimal number in {@code text[at, at + width)}, or -1 when a character is not a digit. */
    private static int number(String text, int at, int width) {
        int value = 0;
        for (int i = at; i < at + width; i++) {
            char ch = text.charAt(i);
            if (ch < '0' || ch > '9') return -1;
            value = value * 10 + (ch - '0');
        }
        return value;
    }
}
