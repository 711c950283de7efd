package dev.baton.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.domain.DomainException;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Refusal;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorStatusesTest {

    @Test
    void each_refusal_has_the_status_of_api_md() {
        assertThat(ErrorStatuses.status(new Refusal.NotFound("session"))).isEqualTo(404);
        assertThat(ErrorStatuses.status(new Refusal.Forbidden("no"))).isEqualTo(403);
        assertThat(ErrorStatuses.status(new Refusal.InvalidInput("invalid_request", "bad")))
                .isEqualTo(400);
        assertThat(ErrorStatuses.status(new Refusal.InvalidValue("bad"))).isEqualTo(422);
        assertThat(ErrorStatuses.status(new Refusal.SessionBusy())).isEqualTo(409);
        assertThat(ErrorStatuses.status(new Refusal.RateLimited("slow down", Duration.ofSeconds(3), Map.of())))
                .isEqualTo(429);
        assertThat(ErrorStatuses.status(new Refusal.ApprovalNotPending("approval_expired", "late")))
                .isEqualTo(409);
    }

    @Test
    void a_failed_turn_is_answered_by_its_code_and_an_open_breaker_is_503() {
        assertThat(ErrorStatuses.status(new TurnEvent.Failed("model_timeout", "x", true)))
                .isEqualTo(504);
        assertThat(ErrorStatuses.status(new TurnEvent.Failed("model_unavailable", "x", true)))
                .isEqualTo(502);
        assertThat(ErrorStatuses.status(new TurnEvent.Failed("model_unavailable", "x", true, Duration.ofSeconds(30))))
                .isEqualTo(503);
        assertThat(ErrorStatuses.status(new TurnEvent.Failed("something_new", "x", false)))
                .isEqualTo(500);
    }

    @Test
    void a_domain_refusal_has_a_status_and_the_apis_code() {
        assertThat(ErrorStatuses.status(DomainException.Kind.INVALID_ARGUMENT)).isEqualTo(422);
        assertThat(ErrorStatuses.wireCode(DomainException.Kind.INVALID_ARGUMENT))
                .isEqualTo("invalid_value");
        assertThat(ErrorStatuses.wireCode(DomainException.Kind.PERMISSION_DENIED))
                .isEqualTo("forbidden");
    }

    @Test
    void retry_after_is_whole_seconds_rounded_up_and_never_zero() {
        assertThat(ErrorStatuses.retryAfterSeconds(Duration.ofMillis(1500))).isEqualTo(2);
        assertThat(ErrorStatuses.retryAfterSeconds(Duration.ZERO)).isEqualTo(1);
        assertThat(ErrorStatuses.retryAfterSeconds(Duration.ofSeconds(7))).isEqualTo(7);
    }

    @Test
    void the_error_body_has_code_message_and_request_id() throws Exception {
        JsonNode body = WireJson.MAPPER.readTree(ErrorStatuses.body("not_found", "session not found", "req-1"));

        assertThat(body.path("error").path("code").asText()).isEqualTo("not_found");
        assertThat(body.path("error").path("message").asText()).isEqualTo("session not found");
        assertThat(body.path("error").path("requestId").asText()).isEqualTo("req-1");
    }
}
