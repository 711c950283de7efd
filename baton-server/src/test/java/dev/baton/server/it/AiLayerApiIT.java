package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.BundledScript;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The learning platform AI layer's own API (design 000) over real HTTP with the simulator, in that design's field
 * names only: {"prompt", "conversation_id", "stream"} → {"answer", "conversation_id", "turn_id"} or SSE.
 */
class AiLayerApiIT {
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
    void chat_answers_with_answer_conversation_id_and_turn_id_and_continues_the_conversation() {
        String token = TestServer.token("ada");

        var first = t.api.post("/v1/ai/chat", token, "{\"prompt\":\"enroll me in calculus-1\"}");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body().path("answer").asText()).isEqualTo("You're enrolled in Calculus I.");
        String conversation = first.body().path("conversation_id").asText();
        assertThat(first.body().path("turn_id").asText()).isNotBlank();

        var second = t.api.post(
                "/v1/ai/execute", token, "{\"prompt\":\"my courses\",\"conversation_id\":\"" + conversation + "\"}");
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body().path("conversation_id").asText()).isEqualTo(conversation);
        assertThat(second.body().path("answer").asText()).contains("Calculus I: 0% done");
    }

    @Test
    void stream_true_answers_with_server_sent_events() {
        try (var stream = t.api.openStream(
                "/v1/ai/chat", TestServer.token("sam"), "{\"prompt\":\"list courses\",\"stream\":true}")) {
            assertThat(stream.status).isEqualTo(200);
            List<SseEvent> events = stream.all();
            assertThat(events).extracting(SseEvent::event).contains("tool_call", "tool_result", "chunk", "done");
        }
    }

    @Test
    void a_missing_prompt_is_400_and_someone_elses_conversation_is_404() {
        String owner = TestServer.token("own");
        String conversation = t.api.post("/v1/ai/chat", owner, "{\"prompt\":\"list courses\"}")
                .body()
                .path("conversation_id")
                .asText();

        var missing = t.api.post("/v1/ai/chat", owner, "{}");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.body().at("/error/message").asText()).contains("prompt");
        var foreign = t.api.post(
                "/v1/ai/chat",
                TestServer.token("thief"),
                "{\"prompt\":\"hi\",\"conversation_id\":\"" + conversation + "\"}");
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(t.api.post("/v1/ai/chat", null, "{\"prompt\":\"hi\"}").status())
                .isEqualTo(401);
    }

    @Test
    void the_surface_can_be_switched_off(@TempDir Path other) throws Exception {
        var yaml = dev.baton.app.config.ConfigLoader.yamlMapper().readTree("compat: {aiLayer: false}");
        try (TestServer off = LearningFixture.start(other, BundledScript.create(), yaml, Clock.systemUTC())) {
            assertThat(off.api
                            .post("/v1/ai/chat", TestServer.token("ada"), "{\"prompt\":\"hi\"}")
                            .status())
                    .isEqualTo(404);
            assertThat(off.api
                            .post("/chat/stream", TestServer.token("ada"), "{\"input\":\"hi\"}")
                            .status())
                    .isNotEqualTo(404);
        }
    }
}
