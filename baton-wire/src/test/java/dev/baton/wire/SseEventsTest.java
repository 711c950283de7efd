package dev.baton.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.turn.TurnEvent;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SseEventsTest {

    @Test
    void an_events_data_repeats_its_name_as_type_first() {
        SseEvents.Rendered chunk = SseEvents.render(new TurnEvent.Chunk("Hello"));

        assertThat(chunk.type()).isEqualTo("chunk");
        assertThat(chunk.json()).isEqualTo("{\"type\":\"chunk\",\"content\":\"Hello\"}");
    }

    @Test
    void a_run_that_goes_on_from_a_stored_state_says_its_answer_so_far_and_a_new_turn_does_not() {
        assertThat(SseEvents.render(new TurnEvent.Started("t-1", "s-1", "r-1")).json())
                .isEqualTo(
                        "{\"type\":\"turn.started\",\"turnId\":\"t-1\",\"sessionId\":\"s-1\",\"requestId\":\"r-1\"}");
        assertThat(SseEvents.render(new TurnEvent.Started("t-1", "s-1", "r-1", "Let me look. "))
                        .data()
                        .path("answerSoFar")
                        .asText())
                .isEqualTo("Let me look. ");
    }

    @Test
    void a_failed_turn_is_an_error_event_with_retry_after_in_whole_seconds() {
        SseEvents.Rendered error = SseEvents.render(
                new TurnEvent.Failed("model_unavailable", "the model is down", true, Duration.ofMillis(2500)));

        assertThat(error.type()).isEqualTo("error");
        assertThat(error.json())
                .isEqualTo("{\"type\":\"error\",\"code\":\"model_unavailable\",\"message\":\"the model is down\","
                        + "\"retryable\":true,\"retryAfter\":3}");
    }
}
