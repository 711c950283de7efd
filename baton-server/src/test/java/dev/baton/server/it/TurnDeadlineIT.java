package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.net.Socket;
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

    @Test
    void a_turn_whose_client_stops_reading_still_ends_at_its_deadline() throws Exception {
        // far more text than the socket buffers between Baton and the client hold
        String huge = "word ".repeat(3_000_000);
        SimulatorScript script = SimulatorScript.builder()
                .always(Reply.text(huge))
                .chunkSize(1_000)
                .build();
        TurnLimits threeSeconds = new TurnLimits(
                5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(3));
        try (LlmSimulator sim = LlmSimulator.start(script);
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), threeSeconds, sim, false);
                Socket client = new Socket()) {
            String token = TestServer.token("stalled");
            String session = t.api.startSession(token, "tasks");
            StalledSseClient.send(client, t.server.port(), token, session, "talk a lot");
            // ... and never reads a byte of the answer

            long started = System.nanoTime();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> sim.requestCount() >= 1);
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> t.server.runtime().runningTurns().count() == 0);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            // the deadline is 3 s: a write blocked on the silent client once held the turn until the connection's
            // idle timeout (30 s); now the blocked write is cut a second after the deadline
            assertThat(took).isLessThan(Duration.ofSeconds(18));
            var messages = t.api.get("/v1/sessions/" + session + "/messages", token)
                    .body()
                    .path("messages");
            assertThat(messages.get(1).path("status").asText()).isEqualTo("cancelled");
        }
    }
}
