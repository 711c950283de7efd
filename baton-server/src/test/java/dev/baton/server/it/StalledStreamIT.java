package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.app.config.BatonConfig;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that stops reading its SSE stream holds no more than the stream's bound on the server: its turn waits for
 * it (and ends, cancelled, at the request deadline) while another user's turn runs to the end.
 */
class StalledStreamIT {
    @TempDir
    Path dir;

    /** A small bound, so that a few events fill it. */
    private static final int BOUND = 1024;

    @Test
    void a_stalled_stream_holds_at_most_its_bound_and_its_turn_is_cancelled_at_the_deadline_while_others_chat()
            throws Exception {
        SimulatorScript script = StalledTurnSetup.script();
        BatonConfig config = StalledTurnSetup.config(dir, BOUND);
        try (LlmSimulator sim = LlmSimulator.start(script);
                TestServer t = TestServer.start(config, sim, false, Clock.systemUTC());
                Socket stalled = new Socket()) {
            String token = TestServer.token("stalled");
            String session = t.api.startSession(token, "tasks");
            StalledSseClient.send(stalled, t.server.port(), token, session, StalledTurnSetup.PROMPT);
            // ... and never reads a byte of the answer

            // the stream's buffer filled up and its turn had to wait for the client
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> MetricsIT.scrape(t).value("baton_sse_stalled_total") >= 1);
            assertThat(t.server.runtime().runningTurns().count()).isEqualTo(1);

            // another user chats meanwhile, to the end
            String other = TestServer.token("other");
            String otherSession = t.api.startSession(other, "tasks");
            try (ApiClient.SseStream s = t.api.stream(otherSession, other, "hello")) {
                List<SseEvent> events =
                        s.until(e -> e.type().equals("done") || e.type().equals("error"));
                assertThat(events.getLast().type()).isEqualTo("done");
            }
            // the other turn leaves the running turns just after its `done` is sent; the stalled one stays
            await("the stalled turn still waits for its client")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> t.server.runtime().runningTurns().count() == 1);

            // the deadline cancels the stalled turn, which is recorded as cancelled
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> t.server.runtime().runningTurns().count() == 0);
            var messages = t.api.get("/v1/sessions/" + session + "/messages", token)
                    .body()
                    .path("messages");
            assertThat(messages.get(1).path("status").asText()).isEqualTo("cancelled");

            // never more than the bound in one stream, and nothing left once the streams ended
            PrometheusScrape after = MetricsIT.scrape(t);
            assertThat(after.value("baton_sse_stream_buffered_max_bytes"))
                    .isPositive()
                    .isLessThanOrEqualTo(BOUND);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> MetricsIT.scrape(t).value("baton_sse_buffered_bytes") == 0);
        }
    }
}
