package dev.baton.tasks.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskRulesTest {

    @Test
    void a_bare_date_means_the_end_of_that_day_in_utc() {
        assertThat(TaskRules.dueDate("2026-11-21")).isEqualTo(Instant.parse("2026-11-21T23:59:59Z"));
    }

    @Test
    void date_times_with_an_offset_are_converted_and_without_one_are_read_as_utc() {
        assertThat(TaskRules.dueDate("2026-11-21T17:00:00+02:00")).isEqualTo(Instant.parse("2026-11-21T15:00:00Z"));
        assertThat(TaskRules.dueDate("2026-11-21T17:00:00Z")).isEqualTo(Instant.parse("2026-11-21T17:00:00Z"));
        assertThat(TaskRules.dueDate("2026-11-21T17:00")).isEqualTo(Instant.parse("2026-11-21T17:00:00Z"));
        assertThat(TaskRules.dueDate("2026-11-21T17:00:00.123456Z"))
                .isEqualTo(Instant.parse("2026-11-21T17:00:00.123Z"));
    }

    @Test
    void anything_else_is_an_invalid_due_date_with_a_message_that_says_what_is_accepted() {
        for (String bad : List.of("tomorrow", "21/11/2026", "2026-11-31", "2026-1-5", "+12026-11-21T00:00:00Z", " ")) {
            assertThatThrownBy(() -> TaskRules.dueDate(bad)).as(bad).isInstanceOfSatisfying(TaskException.class, e -> {
                assertThat(e.code()).isEqualTo("invalid_argument");
                assertThat(e.getMessage()).startsWith("dueDate must");
            });
        }
    }

    @Test
    void lengths_count_characters_not_utf16_units() {
        String twoHundredEmoji = "😀".repeat(200);
        assertThat(TaskRules.title(twoHundredEmoji)).isEqualTo(twoHundredEmoji);
        assertThatThrownBy(() -> TaskRules.title(twoHundredEmoji + "x")).hasMessageContaining("(got 201)");
    }

    @Test
    void tags_are_trimmed_lower_cased_and_deduplicated_in_order() {
        assertThat(TaskRules.tags(List.of(" Work", "home", "WORK", "Home "))).containsExactly("work", "home");
        assertThatThrownBy(() -> TaskRules.tags(List.of("ok", "  "))).hasMessageContaining("each tag must be 1-40");
    }

    @Test
    void a_blank_description_is_no_description() {
        assertThat(TaskRules.description("   ")).isNull();
        assertThat(new NewTask("t", " \n", null, null, null).description()).isNull();
    }
}
