package dev.baton.tasks.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class DueWindowTest {
    private static final Instant WEDNESDAY = Instant.parse("2026-11-18T10:00:00Z");

    @Test
    void today_is_the_utc_calendar_day() {
        DueWindow.DueRange range = DueWindow.parse("today").range(WEDNESDAY);
        assertThat(range.from()).isEqualTo(Instant.parse("2026-11-18T00:00:00Z"));
        assertThat(range.before()).isEqualTo(Instant.parse("2026-11-19T00:00:00Z"));
    }

    @Test
    void this_week_runs_monday_to_sunday_on_any_day_of_it() {
        for (String now : new String[] {"2026-11-16T00:00:00Z", "2026-11-18T10:00:00Z", "2026-11-22T23:59:59Z"}) {
            DueWindow.DueRange range = DueWindow.parse("this_week").range(Instant.parse(now));
            assertThat(range.from()).as(now).isEqualTo(Instant.parse("2026-11-16T00:00:00Z"));
            assertThat(range.before()).as(now).isEqualTo(Instant.parse("2026-11-23T00:00:00Z"));
        }
    }

    @Test
    void overdue_is_everything_due_before_now_and_only_open_tasks() {
        DueWindow overdue = DueWindow.parse("OVERDUE");
        assertThat(overdue.range(WEDNESDAY)).isEqualTo(new DueWindow.DueRange(null, WEDNESDAY));
        assertThat(overdue.openOnly()).isTrue();
        assertThat(DueWindow.parse("today").openOnly()).isFalse();
    }

    @Test
    void a_date_is_that_whole_day() {
        assertThat(DueWindow.parse("2026-12-24")).isEqualTo(new DueWindow.OnDate(LocalDate.of(2026, 12, 24)));
        assertThat(DueWindow.parse("2026-12-24").range(WEDNESDAY))
                .isEqualTo(new DueWindow.DueRange(
                        Instant.parse("2026-12-24T00:00:00Z"), Instant.parse("2026-12-25T00:00:00Z")));
    }
}
