package dev.baton.core.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The date line is remembered per second: every turn of a second shares it, and the next second gets its own. */
class SystemPromptDateLineTest {

    @Test
    void turns_within_one_second_share_the_line_and_the_next_second_gets_its_own() {
        Instant saturday = Instant.parse("2026-11-21T10:15:30.100Z");

        String first = SystemPrompt.dateLine(saturday);
        String sameSecond = SystemPrompt.dateLine(saturday.plusMillis(800));
        String next = SystemPrompt.dateLine(saturday.plusSeconds(1));
        String back = SystemPrompt.dateLine(saturday);

        assertThat(first).isEqualTo("Current date and time: 2026-11-21T10:15:30Z (Saturday, UTC)");
        assertThat(sameSecond).isEqualTo(first);
        assertThat(next).isEqualTo("Current date and time: 2026-11-21T10:15:31Z (Saturday, UTC)");
        assertThat(back).isEqualTo(first);
    }

    @Test
    void a_new_day_gets_its_name() {
        assertThat(SystemPrompt.dateLine(Instant.parse("2026-11-22T00:00:00Z")))
                .isEqualTo("Current date and time: 2026-11-22T00:00:00Z (Sunday, UTC)");
    }
}
