package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.app.config.BatonConfig;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.http.H2cClient;
import dev.baton.testkit.http.H2cConnection;
import dev.baton.testkit.http.SseStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server speaks HTTP/2 cleartext beside HTTP/1.1 on its one port: SSE turns stream over h2c, many on one
 * connection, and a stream whose client stops reading stalls only its own turn.
 */
class H2cStreamsIT {
    @TempDir
    Path dir;

    /** A small bound, so that a few events fill it. */
    private static final int BOUND = 1024;

    /** The client's flow-control window per stream: far below the stalled answer. */
    private static final int STREAM_WINDOW = 64 * 1024;

    private static final String CHAT = "{\"message\":\"hello\",\"agentId\":\"tasks\",\"stream\":true}";

    @Test
    void a_turn_streamed_over_h2c_with_prior_knowledge_reaches_done_on_http_2() throws Exception {
        try (TestServer t = TestServer.start(
                        dir,
                        SimulatorScript.builder().fallback("Hello over HTTP/2.").build());
                H2cClient client = H2cClient.start(STREAM_WINDOW);
                H2cConnection connection = client.connect("127.0.0.1", t.server.port())) {
            SseStream turn = connection.post("/v1/chat", TestServer.token("h2"), CHAT, true);

            assertThat(turn.ended().get(60, TimeUnit.SECONDS)).isEqualTo("done");
            SseStream.Response response = turn.response().join();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(turn.events()).extracting(SseStream.Event::type).contains("chunk");
            assertThat(String.join("", chunks(turn))).isEqualTo("Hello over HTTP/2.");
        }
    }

    @Test
    void a_client_that_resets_its_stream_cancels_its_turn_and_the_connection_goes_on() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (LlmSimulator sim = LlmSimulator.start(
                        SimulatorScript.builder().fallback("one two three four").build());
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), TurnLimits.DEFAULTS, sim, false);
                H2cClient client = H2cClient.start(STREAM_WINDOW);
                H2cConnection connection = client.connect("127.0.0.1", t.server.port())) {
            String token = TestServer.token("leaves");
            String session = t.api.startSession(token, "tasks");
            // the model streams one chunk and then waits: the turn is mid-answer for as long as the test needs
            sim.enqueueFault(Fault.holdAfter(1, release));
            SseStream leaving =
                    connection.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hi\"}", true);
            await().atMost(Duration.ofSeconds(60)).until(() -> leaving.firstChunkNanos() >= 0);

            leaving.cancel();

            // the next write (a heartbeat after a quiet second) fails on the reset stream and cancels the turn
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> t.server.runtime().runningTurns().count() == 0);
            var messages = t.api.get("/v1/sessions/" + session + "/messages", token)
                    .body()
                    .path("messages");
            assertThat(messages.get(1).path("status").asText()).isEqualTo("cancelled");
            SseStream after = connection.post("/v1/chat", TestServer.token("after"), CHAT, true);
            assertThat(after.ended().get(60, TimeUnit.SECONDS)).isEqualTo("done");
        } finally {
            release.countDown();
        }
    }

    @Test
    void an_http_1_1_client_may_upgrade_to_h2c_and_one_that_does_not_keeps_http_1_1() throws Exception {
        try (TestServer t =
                TestServer.start(dir, SimulatorScript.builder().fallback("hi").build())) {
            URI healthz = URI.create("http://127.0.0.1:" + t.server.port() + "/healthz");
            // the JDK's client asks for h2c with an Upgrade header on its first request over http://
            assertThat(healthzVersion(healthz, HttpClient.Version.HTTP_2)).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(healthzVersion(healthz, HttpClient.Version.HTTP_1_1)).isEqualTo(HttpClient.Version.HTTP_1_1);
        }
    }

    /** The protocol a JDK client that prefers {@code version} ends up speaking for a 200 from {@code healthz}. */
    private static HttpClient.Version healthzVersion(URI healthz, HttpClient.Version version) throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(version).build()) {
            HttpResponse<String> r =
                    client.send(HttpRequest.newBuilder(healthz).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            return r.version();
        }
    }

    @Test
    void a_stream_that_stops_reading_stalls_only_its_own_turn_and_is_reset_at_its_deadline_on_a_shared_connection()
            throws Exception {
        SimulatorScript script = StalledTurnSetup.script();
        BatonConfig config = StalledTurnSetup.config(dir, BOUND);
        try (LlmSimulator sim = LlmSimulator.start(script);
                TestServer t = TestServer.start(config, sim, false, Clock.systemUTC());
                H2cClient client = H2cClient.start(STREAM_WINDOW);
                H2cConnection connection = client.connect("127.0.0.1", t.server.port())) {
            String token = TestServer.token("stalled");
            String session = t.api.startSession(token, "tasks");
            SseStream stalled = connection.post(
                    "/v1/sessions/" + session + "/messages",
                    token,
                    "{\"content\":\"" + StalledTurnSetup.PROMPT + "\"}",
                    false);
            // ... which reads nothing of its answer

            // the stream's window and then its buffer filled up, and its turn had to wait for the client
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> MetricsIT.scrape(t).value("baton_sse_stalled_total") >= 1);
            assertThat(stalled.response().join().version()).isEqualTo(HttpVersion.HTTP_2);

            // another user's turn on the same connection runs to the end meanwhile
            SseStream other = connection.post("/v1/chat", TestServer.token("other"), CHAT, true);
            assertThat(other.ended().get(60, TimeUnit.SECONDS)).isEqualTo("done");
            // the other turn leaves the running ones just after its done event
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> t.server.runtime().runningTurns().count() == 1);
            assertThat(stalled.ended())
                    .as("the stalled turn still waits for its client")
                    .isNotDone();

            // the deadline cancels the stalled turn and resets its stream alone, not the connection
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> t.server.runtime().runningTurns().count() == 0);
            assertThat(stalled.ended().get(60, TimeUnit.SECONDS)).startsWith("reset");
            var messages = t.api.get("/v1/sessions/" + session + "/messages", token)
                    .body()
                    .path("messages");
            assertThat(messages.get(1).path("status").asText()).isEqualTo("cancelled");
            assertThat(connection.isOpen()).isTrue();
            SseStream after = connection.post("/v1/chat", TestServer.token("after"), CHAT, true);
            assertThat(after.ended().get(60, TimeUnit.SECONDS)).isEqualTo("done");

            // never more than the bound in one stream, and nothing left once the streams ended
            assertThat(MetricsIT.scrape(t).value("baton_sse_stream_buffered_max_bytes"))
                    .isPositive()
                    .isLessThanOrEqualTo(BOUND);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> MetricsIT.scrape(t).value("baton_sse_buffered_bytes") == 0);
        }
    }

    private static List<String> chunks(SseStream turn) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> texts = new java.util.ArrayList<>();
        for (SseStream.Event e : turn.events()) {
            if (e.type().equals("chunk"))
                texts.add(json.readTree(e.data()).path("content").asText());
        }
        return texts;
    }
}
