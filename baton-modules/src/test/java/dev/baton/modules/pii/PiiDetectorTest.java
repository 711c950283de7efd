package dev.baton.modules.pii;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PiiDetectorTest {

    private final PiiDetector detector = PiiDetector.all();

    /** Finds exactly one item of {@code type}, covering exactly {@code expected}. */
    private void assertFinds(String text, PiiType type, String expected) {
        List<PiiMatch> found = detector.find(text);
        assertThat(found).as("findings in <%s>", text).hasSize(1);
        PiiMatch m = found.getFirst();
        assertThat(m.type()).as("type in <%s>", text).isEqualTo(type);
        assertThat(text.substring(m.start(), m.end())).isEqualTo(expected);
    }

    private void assertFindsNothing(String text) {
        assertThat(detector.find(text)).as("findings in <%s>", text).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "write to alice@example.com please|alice@example.com",
                "Alice.Smith+news@mail.example.co.uk.|Alice.Smith+news@mail.example.co.uk",
                "(bob_99@sub-domain.example.org)|bob_99@sub-domain.example.org",
                "mail:carol%x@example.io,|carol%x@example.io",
                "ADMIN@EXAMPLE.COM|ADMIN@EXAMPLE.COM",
            })
    void finds_email_addresses(String text, String expected) {
        assertFinds(text, PiiType.EMAIL, expected);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "the @ sign",
                "user@localhost",
                "follow @alice on social media",
                "a@b",
                "foo@bar.",
                "email me at alice at example dot com",
            })
    void ignores_what_is_not_an_email_address(String text) {
        assertFindsNothing(text);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "call +1 415 555 2671 now|+1 415 555 2671",
                "call +1 (415) 555-2671|+1 (415) 555-2671",
                "London: +44 20 7946 0958.|+44 20 7946 0958",
                "London: +44 (0)20 7946 0958|+44 (0)20 7946 0958",
                "mobile +4915112345678 ok|+4915112345678",
                "Paris +33 1 23 45 67 89|+33 1 23 45 67 89",
                "dial 0044 20 7946 0958|0044 20 7946 0958",
                "US (415) 555-2671|(415) 555-2671",
                "US 415-555-2671|415-555-2671",
                "US 415.555.2671|415.555.2671",
                "UK 020 7946 0958|020 7946 0958",
                "UK mobile 07700 900123|07700 900123",
                "Berlin 030 12345678|030 12345678",
                "Paris 01 23 45 67 89|01 23 45 67 89",
            })
    void finds_phone_numbers(String text, String expected) {
        assertFinds(text, PiiType.PHONE, expected);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "due 2024-01-15",
                "due 15.01.2024",
                "due 01/15/2024",
                "due 2024-01-15 10:30",
                "at 2024-01-15T10:30:00Z",
                "at 2024-01-15T10:30:00.123+02:00",
                "between 10:30 and 11:45",
                "pick 12345",
                "pi is 3.14159265358979",
                "the total is 1,000,000",
                "the total is 10 000 000",
                "population 123 456 789",
                "host 192.168.100.200",
                "version 2.10.3",
                "ISBN 978-3-16-148410-0",
                "chapter 12, pages 100-200",
                "local 555-1234",
                "ticket 4155552671",
                "+1",
                "score 3-2",
            })
    void ignores_dates_times_and_plain_numbers(String text) {
        assertFindsNothing(text);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "card 4111 1111 1111 1111 thanks|4111 1111 1111 1111",
                "card 4111-1111-1111-1111|4111-1111-1111-1111",
                "card 4111111111111111.|4111111111111111",
                "amex 3782 822463 10005|3782 822463 10005",
                "mc 5555555555554444|5555555555554444",
                "card 4111 1111 1111 1111 2024|4111 1111 1111 1111",
                "diners 3056 9309 0259 04|3056 9309 0259 04",
                "ref 12 4111 1111 1111 1111|4111 1111 1111 1111",
                "visa13 4222222222222|4222222222222",
            })
    void finds_payment_cards_that_pass_luhn(String text, String expected) {
        assertFinds(text, PiiType.CARD, expected);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "card 4111 1111 1111 1112",
                "order 1234 5678 9012 3456",
                "id 1234567890123456",
                "zeros 0000 0000 0000 0000",
                "too long 41111111111111111111111",
            })
    void ignores_digit_runs_that_fail_luhn(String text) {
        assertFindsNothing(text);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "ssn 123-45-6789.|123-45-6789",
                "SSN: 078-05-1120|078-05-1120",
                "(665-01-0001)|665-01-0001",
                "899-99-9999|899-99-9999",
            })
    void finds_social_security_numbers(String text, String expected) {
        assertFinds(text, PiiType.SSN, expected);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "000-12-3456",
                "666-12-3456",
                "900-12-3456",
                "987-65-4321",
                "123-00-4567",
                "123-45-0000",
                "123-45-67890",
                "1123-45-6789",
                "123-45-6789-1",
            })
    void ignores_never_issued_social_security_numbers(String text) {
        assertFindsNothing(text);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "pay to DE89 3704 0044 0532 0130 00 today|DE89 3704 0044 0532 0130 00",
                "pay to DE89370400440532013000|DE89370400440532013000",
                "GB82 WEST 1234 5698 7654 32.|GB82 WEST 1234 5698 7654 32",
                "iban: gb82west12345698765432|gb82west12345698765432",
                "FR14 2004 1010 0505 0001 3M02 606|FR14 2004 1010 0505 0001 3M02 606",
                "NO9386011117947|NO9386011117947",
                "NL91ABNA0417164300 is mine|NL91ABNA0417164300",
            })
    void finds_ibans_that_pass_mod_97(String text, String expected) {
        assertFinds(text, PiiType.IBAN, expected);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DE89 3704 0044 0532 0130 01",
                "DE8937040044053201300",
                "DE893704004405320130001",
                "XX89370400440532013000",
                "model AB12 is new",
                "DE89",
            })
    void ignores_ibans_with_a_bad_check_or_length(String text) {
        assertFindsNothing(text);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Hello, how do I solve 2x + 3 = 7?",
                "Meet me at 10:30 on 2024-01-15 in room 101.",
                "The answer is 42. It costs $1,299.99 plus 19% tax.",
                "Chapter 3.2.1 explains O(n log n) sorting on arrays of 10000 elements.",
            })
    void ordinary_text_is_left_alone(String text) {
        assertFindsNothing(text);
        assertThat(detector.redact(text).text()).isEqualTo(text);
    }

    @org.junit.jupiter.api.Test
    void redacts_every_kind_with_typed_placeholders_and_counts_them() {
        String text = "Mail a@example.com or b@example.com, call +44 20 7946 0958, card 4111 1111 1111 1111, "
                + "SSN 123-45-6789, IBAN DE89 3704 0044 0532 0130 00.";

        Redaction r = detector.redact(text);

        assertThat(r.text()).isEqualTo("Mail [EMAIL] or [EMAIL], call [PHONE], card [CARD], SSN [SSN], IBAN [IBAN].");
        assertThat(r.counts())
                .containsExactly(
                        java.util.Map.entry(PiiType.EMAIL, 2),
                        java.util.Map.entry(PiiType.PHONE, 1),
                        java.util.Map.entry(PiiType.CARD, 1),
                        java.util.Map.entry(PiiType.SSN, 1),
                        java.util.Map.entry(PiiType.IBAN, 1));
    }

    @org.junit.jupiter.api.Test
    void a_detector_limited_to_some_kinds_ignores_the_others() {
        PiiDetector emailsOnly = PiiDetector.of(Set.of(PiiType.EMAIL));

        assertThat(emailsOnly.redact("a@example.com 4111 1111 1111 1111").text())
                .isEqualTo("[EMAIL] 4111 1111 1111 1111");
    }
}
