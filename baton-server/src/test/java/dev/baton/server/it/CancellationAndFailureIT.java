package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Fault;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Turns that end early: cancelled, abandoned by the client, or broken by the model. Nothing is lost. */
class CancellationAndFailureIT {

    static final String STORY = "Once upon a time " + "there was a very long story that went on and on ".repeat(40);

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        SimulatorScript script = SimulatorScript.builder()
                // slow enough that the test can act mid-stream: one word per chunk, 40 words a second
                .rule(dev.baton.simulator.Rule.when(
                                new dev.baton.simulator.Condition.UserContains("story"), Reply.text(STORY))
                        .withPacing(new dev.baton.simulator.Pacing(Duration.ZERO, 40, 1)))
                .always(Reply.text("Fine answer."))
                .build();
        t = TestServer.start(dir, script);
    }

    @BeforeEach
    void forgetRequests() {
        t.simulator.clearRequests();
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private static JsonNode messages(String session, String token) {
        return t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
    }

    @Test
    void cancel_mid_stream_keeps_the_partial_answer_and_closes_the_model_connection() {
        String token = TestServer.token("canceller");
        String session = t.api.startSession(token, "tasks");
        int disconnectsBefore = t.simulator.clientDisconnects();
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "tell me a story")) {
            List<SseEvent> first = stream.until(e -> e.event().equals("chunk"));
            var cancel = t.api.post("/v1/sessions/" + session + "/cancel", token, "{}");
            assertThat(cancel.body().path("cancelled").asBoolean()).isTrue();
            events = new java.util.ArrayList<>(first);
            events.addAll(stream.all());
        }
        SseEvent last = events.getLast();
        assertThat(last.event()).isEqualTo("error");
        assertThat(last.data().path("code").asText()).isEqualTo("cancelled");
        assertThat(t.simulator.awaitClientDisconnects(disconnectsBefore + 1, Duration.ofSeconds(10)))
                .isTrue();

        JsonNode stored = messages(session, token);
        assertThat(stored).hasSize(2);
        assertThat(stored.get(0).path("content").asText()).isEqualTo("tell me a story");
        JsonNode partial = stored.get(1);
        assertThat(partial.path("status").asText()).isEqualTo("cancelled");
        assertThat(partial.path("content").asText()).isNotEmpty();
        assertThat(STORY).startsWith(partial.path("content").asText());
        assertThat(partial.path("content").asText().length()).isLessThan(STORY.length());
    }

    @Test
    void a_client_that_disconnects_cancels_the_turn_and_the_partial_answer_is_saved() {
        String token = TestServer.token("leaver");
        String session = t.api.startSession(token, "tasks");
        int disconnectsBefore = t.simulator.clientDisconnects();
        try (var stream = t.api.stream(session, token, "tell me a story")) {
            stream.until(e -> e.event().equals("chunk"));
        } // closing the response is the disconnect
        assertThat(t.simulator.awaitClientDisconnects(disconnectsBefore + 1, Duration.ofSeconds(10)))
                .isTrue();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> messages(session, token).size() == 2);
        JsonNode partial = messages(session, token).get(1);
        assertThat(partial.path("status").asText()).isEqualTo("cancelled");
        assertThat(STORY).startsWith(partial.path("content").asText());
    }

    @Test
    void a_model_failure_mid_stream_ends_with_an_error_event_and_the_conversation_stays_usable() {
        String token = TestServer.token("survivor");
        String session = t.api.startSession(token, "tasks");
        t.simulator.enqueueFault(Fault.disconnectAfter(2));
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "first try")) {
            events = stream.all();
        }
        assertThat(events.getFirst().event()).isEqualTo("turn.started");
        assertThat(events.stream().filter(e -> e.event().equals("chunk")).count())
                .isEqualTo(2);
        SseEvent error = events.getLast();
        assertThat(error.event()).isEqualTo("error");
        assertThat(error.data().path("code").asText()).isEqualTo("model_unavailable");
        assertThat(error.data().path("retryable").asBoolean()).isTrue();

        JsonNode stored = messages(session, token);
        assertThat(stored.get(0).path("content").asText()).isEqualTo("first try");
        assertThat(stored.get(1).path("status").asText()).isEqualTo("incomplete");

        // the same conversation answers the next message normally
        try (var stream = t.api.stream(session, token, "second try")) {
            assertThat(stream.all().getLast().event()).isEqualTo("done");
        }
        assertThat(messages(session, token)).hasSize(4);
    }

    @Test
    void a_model_500_before_any_output_is_an_error_event_and_the_user_message_is_kept() {
        String token = TestServer.token("unlucky");
        String session = t.api.startSession(token, "tasks");
        t.simulator.enqueueFault(Fault.http500());
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "hello?")) {
            events = stream.all();
        }
        assertThat(events).extracting(SseEvent::event).containsExactly("turn.started", "error");
        assertThat(messages(session, token).get(0).path("content").asText()).isEqualTo("hello?");
    }

    @Test
    void a_model_500_answers_a_json_request_with_502() {
        String token = TestServer.token("jsonuser");
        String session = t.api.startSession(token, "tasks");
        t.simulator.enqueueFault(Fault.http500());
        var r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hi\"}");
        assertThat(r.status()).isEqualTo(502);
        assertThat(r.body().path("error").path("code").asText()).isEqualTo("model_unavailable");
        assertThat(messages(session, token).get(0).path("content").asText()).isEqualTo("hi");
    }

    @Test
    void a_second_message_while_a_turn_runs_is_409() {
        String token = TestServer.token("impatient");
        String session = t.api.startSession(token, "tasks");
        try (var stream = t.api.stream(session, token, "tell me a story")) {
            stream.until(e -> e.event().equals("chunk"));
            var r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hurry\"}");
            assertThat(r.status()).isEqualTo(409);
            assertThat(r.body().path("error").path("code").asText()).isEqualTo("turn_in_progress");
            t.api.post("/v1/sessions/" + session + "/cancel", token, "{}");
        }
    }

    @Test
    void a_retry_while_the_first_attempt_runs_is_409_and_a_cancelled_attempt_frees_the_key() {
        String token = TestServer.token("retrier");
        String session = t.api.startSession(token, "tasks");
        String path = "/v1/sessions/" + session + "/messages";
        java.util.Map<String, String> key = java.util.Map.of("Idempotency-Key", "story-1");
        try (var stream = t.api.openStream(path, token, "{\"content\":\"tell me a story\"}", key)) {
            stream.until(e -> e.event().equals("chunk"));
            var retry = t.api.post(path, token, "{\"content\":\"tell me a story\"}".getBytes(), key);
            assertThat(retry.status()).isEqualTo(409);
            assertThat(retry.body().path("error").path("code").asText()).isEqualTo("idempotency_key_in_use");
            t.api.post("/v1/sessions/" + session + "/cancel", token, "{}");
            assertThat(stream.all().getLast().data().path("code").asText()).isEqualTo("cancelled");
        }
        // the cancelled attempt produced nothing worth replaying: the key may be used again
        await().atMost(Duration.ofSeconds(10))
                .until(() -> t.api.post(path, token, "{\"content\":\"quick question\"}".getBytes(), key)
                                .status()
                        == 200);
    }
}
