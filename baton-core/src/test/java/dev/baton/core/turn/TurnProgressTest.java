package dev.baton.core.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seam a resumed turn will use: a stored state taken up again on another instance. */
class TurnProgressTest {
    private static final Instant NOW = Instant.parse("2026-01-15T09:30:00Z");

    @Test
    void a_resumed_state_snapshots_back_to_itself() {
        TurnState state = TurnStateCodecTest.richState();

        TurnProgress progress = TurnProgress.resume(state, Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(progress.snapshot(progress.filters)).isEqualTo(state);
        assertThat(progress.totalUsage().inputTokens()).isEqualTo(2600);
        assertThat(progress.toolNames()).containsExactly("add_task", "add_task", "ping");
    }

    @Test
    void a_resumed_turn_gets_the_time_its_wall_clock_deadline_leaves_it() {
        TurnState state = TurnState.start("turn-1", "session-1", "message-1", NOW.plusSeconds(30), List.of());

        Duration left =
                TurnProgress.resume(state, Clock.fixed(NOW, ZoneOffset.UTC)).timeLeft();
        Duration none = TurnProgress.resume(
                        TurnState.start("turn-1", "session-1", "message-1", null, List.of()),
                        Clock.fixed(NOW, ZoneOffset.UTC))
                .timeLeft();

        assertThat(left).isBetween(Duration.ofSeconds(29), Duration.ofSeconds(30));
        assertThat(none).isNull();
    }

    @Test
    void a_new_turns_deadline_is_its_start_plus_the_request_timeout_by_the_wall_clock() {
        TurnProgress progress =
                TurnProgress.start("turn-1", "session-1", "message-1", Duration.ofSeconds(45), System.nanoTime(), NOW);

        TurnState state = progress.snapshot(progress.filters);

        assertThat(state.deadline()).isEqualTo(NOW.plusSeconds(45));
        assertThat(progress.timeLeft()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(45));
    }
}
