package dev.baton.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "250ms, PT0.25S",
        "30s, PT30S",
        "5m, PT5M",
        "1h, PT1H",
        "1d, PT24H",
        "0s, PT0S",
        "0ms, PT0S",
        "1.5s, PT1.5S",
        "0.5ms, PT0.0005S",
        "2.25h, PT2H15M",
        "007s, PT7S",
        "+5s, PT5S",
    })
    void a_number_with_a_unit_is_read_in_that_unit(String text, String expected) {
        assertThat(Durations.parse(text, "timeout")).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @CsvSource({"PT30S, PT30S", "P1D, PT24H", "P1DT12H, PT36H", "PT0.5S, PT0.5S", "PT1M30S, PT90S", "pt2s, PT2S"})
    void iso_8601_is_read_as_java_reads_it(String text, String expected) {
        assertThat(Durations.parse(text, "timeout")).isEqualTo(Duration.parse(expected));
    }

    @Test
    void units_ignore_case_and_surrounding_or_inner_blanks() {
        assertThat(Durations.parse("  30S ", "timeout")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("250 MS", "timeout")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("5 m", "timeout")).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void m_is_minutes_whatever_its_case() {
        assertThat(Durations.parse("5M", "timeout")).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void a_bare_number_needs_a_unit_and_the_message_names_the_setting_with_an_example() {
        assertThatThrownBy(() -> Durations.parse("30", "timeout"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'timeout: 30' needs a unit, e.g. 30s or 250ms");
        assertThatThrownBy(() -> Durations.parse("1.5", "pacing.firstTokenLatency"))
                .hasMessage("'pacing.firstTokenLatency: 1.5' needs a unit, e.g. 1.5s or 250ms");
    }

    @Test
    void zero_without_a_unit_still_needs_one() {
        assertThatThrownBy(() -> Durations.parse("0", "sweepInterval"))
                .hasMessage("'sweepInterval: 0' needs a unit, e.g. 0s or 250ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5s", "-1ms", "-30", "-0s", "-PT5S", "PT-5S", "P-1D", "-0.5h"})
    void a_negative_duration_is_refused(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "llmTimeout"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'llmTimeout: " + text + "' must not be negative");
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "30 seconds", "5min", "1w", "1y", "s", "ms", "1.s", ".5s", "1e3ms", "30s5"})
    void anything_else_is_not_a_duration_and_the_message_lists_the_forms(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "retryDelay"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'retryDelay: " + text + "' is not a duration")
                .hasMessageContaining("250ms")
                .hasMessageContaining("PT30S");
    }

    @ParameterizedTest
    @ValueSource(strings = {"P1M", "P1Y", "PT", "P", "PT5X"})
    void iso_8601_that_java_cannot_read_as_a_duration_says_so(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "retention"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'retention: " + text + "' is not an ISO-8601 duration")
                .hasMessageContaining("months and years");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   "})
    void nothing_at_all_is_an_error_naming_the_setting(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "interval"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'interval' is empty");
    }

    @Test
    void more_precision_than_a_nanosecond_is_refused_rather_than_rounded() {
        assertThatThrownBy(() -> Durations.parse("0.0000001ms", "timeout"))
                .hasMessage("'timeout: 0.0000001ms' is finer than a nanosecond");
        assertThat(Durations.parse("0.000001ms", "timeout")).isEqualTo(Duration.ofNanos(1));
    }

    @Test
    void a_duration_beyond_what_java_holds_is_too_long() {
        assertThatThrownBy(() -> Durations.parse("999999999999999999999d", "timeout"))
                .hasMessage("'timeout: 999999999999999999999d' is too long");
        assertThat(Durations.parse("36500d", "timeout")).isEqualTo(Duration.ofDays(36_500));
    }
}
