package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams a turn outlives, on one instance: a client that asked for a resumable stream ({@code Baton-Resumable:
 * true}) drops its connection, the turn runs on, and {@code GET /v1/sessions/{id}/turns/{turnId}/events} with
 * {@code Last-Event-ID} gives it the rest; a second client follows the same turn; a finished turn replays to
 * {@code done}.
 */
class ResumableStreamIT {
    /** 60 words, one per chunk, 60 a second: a turn that runs for about a second. */
    static final String STORY = "word ".repeat(59) + "end.";

    /**
     * 15 words at 5 a second: 200 ms between chunks, twice the test server's 100 ms heartbeat, so a resumed stream of
     * it has quiet moments (a heartbeat is written only after a quiet heartbeat period, and a busy machine only
     * lengthens the gaps).
     */
    static final String SLOW_STORY = "slow ".repeat(14) + "end.";

    @TempDir
    static Path dir;

    static LlmSimulator simulator;
    static TestServer t;

    @BeforeAll
    static void start() {
        simulator = LlmSimulator.start(SimulatorScript.builder()
                .rule(Rule.when(new Condition.UserContains("slow story"), Reply.text(SLOW_STORY))
                        .withPacing(new Pacing(Duration.ZERO, 5, 1)))
                .rule(Rule.when(new Condition.UserContains("story"), Reply.text(STORY))
                        .withPacing(new Pacing(Duration.ZERO, 60, 1)))
                .always(Reply.text("Fine answer."))
                .build());
        t = TestServer.start(
                LimitsFixture.config(
                        "jdbc:sqlite:" + dir.resolve("streams.db"), "rateLimits: { enabled: false }\n", Map.of()),
                simulator,
                true,
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    static String token(String user, String role) {
        return LimitsFixture.token(user, "acme", role, Instant.now());
    }

    static ApiClient.SseStream resumableStory(TestServer server, String session, String token) {
        return resumable(server, session, token, "tell me a story");
    }

    static ApiClient.SseStream resumable(TestServer server, String session, String token, String content) {
        ApiClient.SseStream s = server.api.openStream(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"" + content + "\"}",
                Map.of("Baton-Resumable", "true"));
        assertThat(s.status).isEqualTo(200);
        return s;
    }

    static String eventsPath(String session, String turnId) {
        return "/v1/sessions/" + session + "/turns/" + turnId + "/events";
    }

    /** The concatenated chunks of the events. */
    static String text(List<SseEvent> events) {
        StringBuilder b = new StringBuilder();
        events.stream()
                .filter(e -> e.event().equals("chunk"))
                .forEach(e -> b.append(e.data().path("content").asText()));
        return b.toString();
    }

    static void assertNumberedFromOneWithoutGaps(List<SseEvent> events) {
        for (int i = 0; i < events.size(); i++) assertThat(events.get(i).id()).isEqualTo(i + 1);
    }

    @Test
    void a_dropped_resumable_stream_is_taken_up_again_without_gaps_or_duplicates() {
        String token = token("amy", "student");
        String session = t.api.startSession(token, "tasks");
        List<SseEvent> seen = new ArrayList<>();
        try (ApiClient.SseStream first = resumable(t, session, token, "tell me a slow story")) {
            seen.addAll(first.until(e -> e.id() == 5));
        } // the connection drops after event 5
        String turnId = seen.getFirst().data().path("turnId").asText();

        try (ApiClient.SseStream rest =
                t.api.openGet(eventsPath(session, turnId), token, Map.of("Last-Event-ID", "5"))) {
            assertThat(rest.status).isEqualTo(200);
            seen.addAll(rest.all());
            assertThat(rest.keepalives).as("heartbeats while the turn is quiet").isPositive();
        }

        assertNumberedFromOneWithoutGaps(seen);
        assertThat(seen.getLast().event()).isEqualTo("done");
        assertThat(text(seen)).isEqualTo(SLOW_STORY);
        JsonNode answer = t.api.get("/v1/sessions/" + session + "/messages", token)
                .body()
                .path("messages")
                .get(1);
        assertThat(answer.path("status").asText())
                .as("the drop did not cancel the turn")
                .isEqualTo("complete");
        assertThat(answer.path("content").asText()).isEqualTo(SLOW_STORY);
    }

    @Test
    void a_second_client_follows_a_running_turn_and_sees_the_same_events() throws Exception {
        String token = token("bob", "student");
        String observer = token("oli", "observer");
        String session = t.api.startSession(token, "tasks");
        try (ApiClient.SseStream first = resumableStory(t, session, token)) {
            List<SseEvent> firstEvents =
                    new ArrayList<>(first.until(e -> e.event().equals("turn.started")));
            String turnId = firstEvents.getFirst().data().path("turnId").asText();
            assertThat(t.api.get("/v1/sessions/" + session, token)
                            .body()
                            .path("lastTurnId")
                            .asText())
                    .isEqualTo(turnId);

            List<SseEvent> followed;
            try (ApiClient.SseStream follower = t.api.openGet(eventsPath(session, turnId), observer, Map.of())) {
                assertThat(follower.status).isEqualTo(200);
                followed = follower.all();
            }
            firstEvents.addAll(first.all());

            assertThat(followed).isEqualTo(firstEvents);
            assertNumberedFromOneWithoutGaps(followed);
            assertThat(followed.getLast().event()).isEqualTo("done");
        }
    }

    @Test
    void a_finished_turn_replays_to_done_even_when_it_answered_json() {
        String token = token("cal", "student");
        String session = t.api.startSession(token, "tasks");
        assertThat(t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}")
                        .status())
                .isEqualTo(200);
        String turnId = t.api.get("/v1/sessions/" + session, token)
                .body()
                .path("lastTurnId")
                .asText();

        List<SseEvent> replayed;
        try (ApiClient.SseStream s = t.api.openGet(eventsPath(session, turnId), token, Map.of())) {
            replayed = s.all();
        }

        assertThat(replayed)
                .extracting(SseEvent::event)
                .startsWith("turn.started")
                .endsWith("done");
        assertThat(text(replayed)).isEqualTo("Fine answer.");
        assertNumberedFromOneWithoutGaps(replayed);
    }

    @Test
    void resuming_a_finished_turn_at_or_past_its_done_answers_204_at_once() throws Exception {
        String token = token("fay", "student");
        String session = t.api.startSession(token, "tasks");
        assertThat(t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}")
                        .status())
                .isEqualTo(200);
        String turnId = t.api.get("/v1/sessions/" + session, token)
                .body()
                .path("lastTurnId")
                .asText();
        List<SseEvent> all;
        try (ApiClient.SseStream s = t.api.openGet(eventsPath(session, turnId), token, Map.of())) {
            all = s.all();
        }
        long done = all.getLast().id();
        assertThat(all.getLast().event()).isEqualTo("done");

        // what a browser's EventSource sends when it reconnects after the done event, and ids beyond it
        for (long lastSeen : new long[] {done, done + 1, 1_000_000}) {
            // the answer is taken as soon as its head arrives: a stream held open fails here at once, not in 10 min
            java.net.http.HttpResponse<java.io.InputStream> answer = java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                                            "http://127.0.0.1:" + t.server.port() + eventsPath(session, turnId)))
                                    .header("Authorization", "Bearer " + token)
                                    .header("Accept", "text/event-stream")
                                    .header("Last-Event-ID", Long.toString(lastSeen))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.InputStream body = answer.body()) {
                assertThat(answer.statusCode()).as("Last-Event-ID " + lastSeen).isEqualTo(204);
                assertThat(body.readAllBytes()).isEmpty();
            }
        }
        // one before the end still gets the end
        try (ApiClient.SseStream s =
                t.api.openGet(eventsPath(session, turnId), token, Map.of("Last-Event-ID", Long.toString(done - 1)))) {
            assertThat(s.status).isEqualTo(200);
            assertThat(s.all()).extracting(SseEvent::id).containsExactly(done);
        }
    }

    @Test
    void an_unknown_or_foreign_turn_is_404() {
        String token = token("dan", "student");
        String session = t.api.startSession(token, "tasks");
        t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}");
        String turnId = t.api.get("/v1/sessions/" + session, token)
                .body()
                .path("lastTurnId")
                .asText();
        String otherSession = t.api.startSession(token, "tasks");

        assertThat(status(eventsPath(session, "no-such-turn"), token)).isEqualTo(404);
        assertThat(status(eventsPath(otherSession, turnId), token)).isEqualTo(404);
        assertThat(status(eventsPath(session, turnId), token("eve", "student"))).isEqualTo(404);
        assertThat(status(eventsPath(session, turnId), LimitsFixture.token("oli", "other", "observer", Instant.now())))
                .as("an observer of another tenant")
                .isEqualTo(404);
        assertThat(status(eventsPath(session, turnId), token("oli", "observer")))
                .isEqualTo(200);
    }

    private static int status(String path, String token) {
        try (ApiClient.SseStream s = t.api.openGet(path, token, Map.of())) {
            if (s.status == 200) s.all();
            return s.status;
        }
    }
}
