package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn that outlives its request timeout is a timeout, whichever way the client asked: 504 {@code request_timeout}
 * as JSON (it once answered 409 {@code cancelled}), an {@code error} event over SSE.
 */
class TurnDeadlineIT {
    @TempDir
    Path dir;

    /** The defaults, but a request may take one second: the model below never answers at all. */
    private static final TurnLimits ONE_SECOND = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(1));

    @Test
    void a_json_turn_past_its_request_timeout_answers_504_request_timeout() {
        try (LlmSimulator sim = LlmSimulator.start(SimulatorScript.replyingWith("never seen"));
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), ONE_SECOND, sim, false)) {
            String token = TestServer.token("slow");
            String session = t.api.startSession(token, "tasks");
            sim.enqueueFault(Fault.hang());

            ApiClient.Response r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hi\"}");

            assertThat(r.status()).isEqualTo(504);
            assertThat(r.body().path("error").path("code").asText()).isEqualTo("request_timeout");
            assertThat(sim.awaitClientDisconnect(Duration.ofSeconds(10))).isTrue();
        }
    }
}
