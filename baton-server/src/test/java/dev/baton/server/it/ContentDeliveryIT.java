package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.BundledScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The learning agent finishes what it starts: material a content job prepared (the background worker, the bundled
 * simulator over its HTTP wire) arrives in the conversation that asked for it, as an assistant message in the
 * session's history and as a {@code message} event on {@code GET /v1/events}; "how am I doing?" tells each topic
 * once; the study agent answers study messages as a study companion.
 */
class ContentDeliveryIT {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = LearningFixture.start(dir, BundledScript.create());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void prepared_material_arrives_in_the_session_as_a_message_and_an_event() {
        String token = TestServer.token("dina");
        JsonNode asked = chat(token, "learning", null, "I want to learn quantam fisics");
        String session = asked.path("conversationId").asText();

        String nosyToken = TestServer.token("nosy-neighbour");
        try (var events = t.api.openGet("/v1/events?sessionId=" + session, token, Map.of());
                var nosy = t.api.openGet("/v1/events", nosyToken, Map.of())) {
            assertThat(events.status).isEqualTo(200);
            assertThat(events.next().event()).isEqualTo("ready");
            assertThat(nosy.next().event()).isEqualTo("ready");

            JsonNode confirmed = chat(token, "learning", session, "it is");
            assertThat(confirmed.path("answer").asText()).isEqualTo("Thank you. I'm putting that together now.");

            SseEvent delivered = assertTimeoutPreemptively(PATIENCE, events::next);
            assertThat(delivered.event()).isEqualTo("message");
            assertThat(delivered.data().path("sessionId").asText()).isEqualTo(session);
            assertThat(delivered.data().path("agentId").asText()).isEqualTo("learning");
            assertThat(delivered.data().path("source").asText()).isEqualTo("learning.content");
            JsonNode message = delivered.data().path("message");
            assertThat(message.path("role").asText()).isEqualTo("assistant");
            assertThat(message.path("content").asText())
                    .startsWith("Your material on Quantum physics is ready.\n\n# Quantum physics")
                    .contains("Baton LLM simulator");

            JsonNode history =
                    t.api.get("/v1/sessions/" + session + "/messages", token).body();
            JsonNode last =
                    history.path("messages").get(history.path("messages").size() - 1);
            assertThat(last.path("id").asText()).isEqualTo(message.path("id").asText());
            assertThat(last.path("role").asText()).isEqualTo("assistant");
            assertThat(last.path("content").asText())
                    .isEqualTo(message.path("content").asText());

            // another learner following all their sessions hears of their own material, never of dina's (which was
            // delivered first: had it leaked, it would be the first event here)
            String nosySession = chat(nosyToken, "learning", null, "ledarship")
                    .path("conversationId")
                    .asText();
            chat(nosyToken, "learning", nosySession, "yes");
            SseEvent own = assertTimeoutPreemptively(PATIENCE, nosy::next);
            assertThat(own.event()).isEqualTo("message");
            assertThat(own.data().path("sessionId").asText()).isEqualTo(nosySession);
            assertThat(own.data().at("/message/content").asText()).startsWith("Your material on Leadership is ready.");
        }
    }

    @Test
    void how_am_i_doing_answers_once_per_topic_even_when_it_was_prepared_twice() {
        String token = TestServer.token("hana");
        String session = chat(token, "learning", null, "I want to learn quantam fisics")
                .path("conversationId")
                .asText();
        chat(token, "learning", session, "it is");
        awaitAllCompleted(token, 1);
        // the same topic again, by hand: a second completed job on it
        assertThat(t.api.post("/v1/learning/content-jobs", token, "{\"topic\":\"Quantum physics\"}")
                        .status())
                .isEqualTo(202);
        awaitAllCompleted(token, 2);

        JsonNode progress = chat(token, "learning", session, "how am I doing?");

        assertThat(progress.path("answer").asText())
                .isEqualTo("You're working on Quantum physics. The material on Quantum physics is ready.");
    }

    @Test
    void the_study_agent_answers_a_study_message_as_a_study_companion() {
        String token = TestServer.token("stu");

        JsonNode answer = chat(token, "study", null, "help me understand photosynthesis");

        assertThat(answer.path("answer").asText())
                .startsWith("Let's work through photosynthesis together.")
                .doesNotContain("task");
    }

    @Test
    void another_learners_session_cannot_be_followed_and_a_caller_without_sessions_read_may_not_follow_at_all() {
        String session = chat(TestServer.token("owner"), "learning", null, "physics please")
                .path("conversationId")
                .asText();

        try (var other = t.api.openGet("/v1/events?sessionId=" + session, TestServer.token("nosy"), Map.of())) {
            assertThat(other.status).isEqualTo(404);
            assertThat(other.errorBody().at("/error/code").asText()).isEqualTo("not_found");
        }
        try (var unknown = t.api.openGet("/v1/events?sessionId=no-such-session", TestServer.token("nosy"), Map.of())) {
            assertThat(unknown.status).isEqualTo(404);
        }
        // a role the server does not know grants nothing
        try (var stranger = t.api.openGet("/v1/events", TestServer.token("gus", "stranger"), Map.of())) {
            assertThat(stranger.status).isEqualTo(403);
            assertThat(stranger.errorBody().at("/error/code").asText()).isEqualTo("forbidden");
        }
    }

    private static void awaitAllCompleted(String token, int count) {
        await().atMost(PATIENCE).until(() -> {
            JsonNode jobs = t.api.get("/v1/learning/content-jobs", token).body();
            if (jobs.path("count").asInt() != count) return false;
            for (JsonNode job : jobs.path("jobs")) {
                if (!job.path("status").asText().equals("completed")) return false;
            }
            return true;
        });
    }

    private static JsonNode chat(String token, String agent, String conversation, String message) {
        var body = ApiClient.JSON.createObjectNode().put("message", message);
        if (conversation != null) body.put("conversationId", conversation);
        else body.put("agentId", agent);
        var r = t.api.post("/v1/chat", token, body.toString());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }
}
