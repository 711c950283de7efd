package dev.baton.modules.pii;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StreamingRedactorTest {

    private static final String ANSWER = "Sure! Your card 4111 1111 1111 1111 is on file. We will e-mail "
            + "alice.smith@example.com and call +44 20 7946 0958 about IBAN DE89 3704 0044 0532 0130 00 "
            + "and SSN 123-45-6789. A very long address averyveryverylongmailboxname.for.testing@mail.example.org "
            + "works too. Have a nice day, see you on 2024-01-15 at 10:30.";

    private static final List<String> SECRETS = List.of(
            "4111", "1111 1111", "alice", "smith@", "7946", "0958", "3704", "0044", "6789", "averyvery", "testing@");

    /** Streams {@code chunks} through a redactor, returning each piece released (flush last). */
    private static List<String> stream(List<String> chunks) {
        StreamingRedactor redactor = new StreamingRedactor(PiiDetector.all());
        List<String> out = new ArrayList<>();
        chunks.forEach(c -> out.add(redactor.accept(c)));
        out.add(redactor.finish());
        return out;
    }

    private static void assertNothingLeaks(List<String> released) {
        String joined = String.join("", released);
        assertThat(joined).isEqualTo(PiiDetector.all().redact(ANSWER).text());
        for (String secret : SECRETS) {
            assertThat(joined).doesNotContain(secret);
        }
    }

    @Test
    void one_character_per_chunk_leaks_nothing() {
        List<String> chunks =
                ANSWER.chars().mapToObj(c -> String.valueOf((char) c)).toList();
        assertNothingLeaks(stream(chunks));
    }

    @Test
    void one_word_per_chunk_leaks_nothing() {
        List<String> chunks = new ArrayList<>();
        Matcher m = Pattern.compile("\\s*\\S+").matcher(ANSWER);
        while (m.find()) {
            chunks.add(m.group());
        }
        assertNothingLeaks(stream(chunks));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void random_chunk_boundaries_leak_nothing(long seed) {
        Random random = new Random(seed);
        List<String> chunks = new ArrayList<>();
        int at = 0;
        while (at < ANSWER.length()) {
            int end = Math.min(ANSWER.length(), at + 1 + random.nextInt(12));
            chunks.add(ANSWER.substring(at, end));
            at = end;
        }
        assertNothingLeaks(stream(chunks));
    }

    @Test
    void a_card_split_across_two_chunks_is_never_released_in_part() {
        StreamingRedactor redactor = new StreamingRedactor(PiiDetector.all());
        String first = redactor.accept("Here is the number you asked for: 4111 1111 ");
        String second = redactor.accept("1111 1111, and that is all I know about it, really.");
        String rest = redactor.finish();

        assertThat(first).doesNotContain("4111");
        assertThat(first + second + rest)
                .isEqualTo("Here is the number you asked for: [CARD], and that is all I know about it, really.");
        assertThat(redactor.found()).containsExactly(PiiType.CARD);
    }

    @Test
    void text_without_personal_data_is_released_before_the_end() {
        StreamingRedactor redactor = new StreamingRedactor(PiiDetector.all());
        StringBuilder early = new StringBuilder();
        for (String word : "The quick brown fox jumps over the lazy dog and keeps running far away".split(" ")) {
            early.append(redactor.accept(word + " "));
        }
        assertThat(early.toString()).startsWith("The quick brown fox");
        assertThat(early.toString() + redactor.finish())
                .isEqualTo("The quick brown fox jumps over the lazy dog and keeps running far away ");
        assertThat(redactor.found()).isEmpty();
    }

    @Test
    void a_very_long_word_is_not_held_back_whole() {
        StreamingRedactor redactor = new StreamingRedactor(PiiDetector.all());
        String base64 = "QUJD".repeat(500);
        StringBuilder released = new StringBuilder();
        for (int i = 0; i < base64.length(); i += 10) {
            released.append(redactor.accept(base64.substring(i, i + 10)));
        }

        assertThat(released.length()).isGreaterThan(base64.length() - StreamingRedactor.MAX_WORD_HELD - 10);
        assertThat(released.toString() + redactor.finish()).isEqualTo(base64);
    }

    @Test
    void finishing_twice_in_one_answer_keeps_what_was_found() {
        StreamingRedactor redactor = new StreamingRedactor(PiiDetector.all());
        String first = redactor.accept("mail bob@example.com") + redactor.finish();
        String second = redactor.accept(" and 123-45-6789") + redactor.finish();

        assertThat(first + second).isEqualTo("mail [EMAIL] and [SSN]");
        assertThat(redactor.found()).containsExactly(PiiType.EMAIL, PiiType.SSN);
    }
}
