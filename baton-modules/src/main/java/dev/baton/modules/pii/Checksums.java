package dev.baton.modules.pii;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;

/** The check-digit algorithms that tell a real card number or IBAN from a random run of digits. */
final class Checksums {

    /** IBAN length by country (SWIFT IBAN registry): a code not listed here is not an IBAN country. */
    static final Map<String, Integer> IBAN_LENGTHS = Map.ofEntries(
            Map.entry("AD", 24),
            Map.entry("AE", 23),
            Map.entry("AL", 28),
            Map.entry("AT", 20),
            Map.entry("AZ", 28),
            Map.entry("BA", 20),
            Map.entry("BE", 16),
            Map.entry("BG", 22),
            Map.entry("BH", 22),
            Map.entry("BR", 29),
            Map.entry("BY", 28),
            Map.entry("CH", 21),
            Map.entry("CR", 22),
            Map.entry("CY", 28),
            Map.entry("CZ", 24),
            Map.entry("DE", 22),
            Map.entry("DK", 18),
            Map.entry("DO", 28),
            Map.entry("EE", 20),
            Map.entry("EG", 29),
            Map.entry("ES", 24),
            Map.entry("FI", 18),
            Map.entry("FO", 18),
            Map.entry("FR", 27),
            Map.entry("GB", 22),
            Map.entry("GE", 22),
            Map.entry("GI", 23),
            Map.entry("GL", 18),
            Map.entry("GR", 27),
            Map.entry("GT", 28),
            Map.entry("HR", 21),
            Map.entry("HU", 28),
            Map.entry("IE", 22),
            Map.entry("IL", 23),
            Map.entry("IQ", 23),
            Map.entry("IS", 26),
            Map.entry("IT", 27),
            Map.entry("JO", 30),
            Map.entry("KW", 30),
            Map.entry("KZ", 20),
            Map.entry("LB", 28),
            Map.entry("LC", 32),
            Map.entry("LI", 21),
            Map.entry("LT", 20),
            Map.entry("LU", 20),
            Map.entry("LV", 21),
            Map.entry("LY", 25),
            Map.entry("MC", 27),
            Map.entry("MD", 24),
            Map.entry("ME", 22),
            Map.entry("MK", 19),
            Map.entry("MR", 27),
            Map.entry("MT", 31),
            Map.entry("MU", 30),
            Map.entry("NL", 18),
            Map.entry("NO", 15),
            Map.entry("PK", 24),
            Map.entry("PL", 28),
            Map.entry("PS", 29),
            Map.entry("PT", 25),
            Map.entry("QA", 29),
            Map.entry("RO", 24),
            Map.entry("RS", 22),
            Map.entry("SA", 24),
            Map.entry("SC", 31),
            Map.entry("SD", 18),
            Map.entry("SE", 24),
            Map.entry("SI", 19),
            Map.entry("SK", 24),
            Map.entry("SM", 27),
            Map.entry("ST", 25),
            Map.entry("SV", 28),
            Map.entry("TL", 23),
            Map.entry("TN", 24),
            Map.entry("TR", 26),
            Map.entry("UA", 29),
            Map.entry("VA", 22),
            Map.entry("VG", 24),
            Map.entry("XK", 20));

    private static final BigInteger NINETY_SEVEN = BigInteger.valueOf(97);

    private Checksums() {}

    /** The Luhn (mod 10) check every payment card number passes. */
    static boolean luhn(CharSequence digits) {
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            if (twice) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }

    /** ISO 13616: right country length and the mod-97 check; {@code iban} without spaces. */
    static boolean iban(String iban) {
        String s = iban.toUpperCase(Locale.ROOT);
        Integer length = s.length() < 4 ? null : IBAN_LENGTHS.get(s.substring(0, 2));
        if (length == null || s.length() != length) {
            return false;
        }
        String rearranged = s.substring(4) + s.substring(0, 4);
        StringBuilder numeric = new StringBuilder(rearranged.length() * 2);
        for (int i = 0; i < rearranged.length(); i++) {
            char c = rearranged.charAt(i);
            if (c >= '0' && c <= '9') {
                numeric.append(c);
            } else if (c >= 'A' && c <= 'Z') {
                numeric.append(c - 'A' + 10);
            } else {
                return false;
            }
        }
        return new BigInteger(numeric.toString()).mod(NINETY_SEVEN).intValue() == 1;
    }
}
