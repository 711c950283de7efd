package dev.baton.runtime.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TurnDispatcherTest {

    @Test
    void a_turn_that_fails_while_being_set_up_does_not_leave_its_session_busy() {
        RunningTurns running = new RunningTurns();
        // the runner is never reached: building the request fails first
        try (TurnDispatcher dispatcher = new TurnDispatcher(null, running)) {
            assertThatThrownBy(() -> dispatcher.run(
                            "s-1",
                            Duration.ofMinutes(1),
                            cancellation -> {
                                throw new IllegalArgumentException("session does not belong to the principal");
                            },
                            event -> {}))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(running.count()).isZero();
        assertThat(running.begin("s-1")).isNotNull(); // the next message is not refused with 409
    }
}
