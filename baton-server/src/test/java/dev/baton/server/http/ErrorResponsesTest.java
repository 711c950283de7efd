package dev.baton.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.turn.TurnEvent;
import org.junit.jupiter.api.Test;

class ErrorResponsesTest {

    private static int status(String code) {
        return ErrorResponses.status(new TurnEvent.Failed(code, "x", false));
    }

    @Test
    void a_turn_that_cannot_reach_a_model_is_never_a_500() {
        assertThat(status("model_not_configured")).isEqualTo(503);
        assertThat(status("model_auth")).isEqualTo(502);
        assertThat(status("model_bad_request")).isEqualTo(502);
        assertThat(status("model_unavailable")).isEqualTo(502);
        assertThat(status("model_timeout")).isEqualTo(504);
    }
}
