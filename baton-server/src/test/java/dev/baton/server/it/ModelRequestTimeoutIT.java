package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code models.requestTimeout} bounds one model call on the server's own gateways, whatever the agent's limits
 * allow: an answer that streams for six seconds is cut at a one-second bound and the turn fails as a model timeout,
 * though {@code llmTimeout} and the turn's {@code requestTimeout} would wait a minute and more; raised (here by
 * {@code BATON_MODEL_TIMEOUT} over the same file), the same answer completes.
 */
class ModelRequestTimeoutIT {

    /** 31 words of one token each at five tokens a second: thirty pauses of 200 ms, six seconds in all. */
    private static final String SLOW_ANSWER =
            IntStream.rangeClosed(1, 31).mapToObj(i -> "w%02d".formatted(i)).collect(Collectors.joining(" "));

    private static final SimulatorScript SCRIPT = SimulatorScript.builder()
            .rule(Rule.when(new Condition.UserContains("slowly"), Reply.text(SLOW_ANSWER))
                    .withPacing(new Pacing(java.time.Duration.ZERO, 5, 1)))
            .always(Reply.text("Quick answer."))
            .build();

    @TempDir
    Path dir;

    @Test
    void a_call_longer_than_the_bound_fails_as_a_model_timeout_though_the_agent_allows_more() throws IOException {
        try (LlmSimulator sim = LlmSimulator.start(SCRIPT);
                TestServer t = start(sim, Map.of())) {
            String token = TestServer.token("patient");
            String session = t.api.startSession(token, "tasks");

            List<SseEvent> events;
            try (var stream = t.api.stream(session, token, "answer slowly")) {
                events = stream.all();
            }

            SseEvent last = events.getLast();
            assertThat(last.event()).as("%s", events).isEqualTo("error");
            assertThat(last.data().path("code").asText()).isEqualTo("model_timeout");
            assertThat(events).extracting(SseEvent::event).doesNotContain("done");
            assertThat(sim.requestCount()).isPositive();
            // what streamed before the cut is kept as an incomplete answer, never the whole of it
            JsonNode stored = messages(t, session, token);
            for (JsonNode m : stored) {
                if (!m.path("role").asText().equals("assistant")) continue;
                assertThat(m.path("status").asText()).isEqualTo("incomplete");
                assertThat(m.path("content").asText()).isNotEqualTo(SLOW_ANSWER);
                assertThat(SLOW_ANSWER).startsWith(m.path("content").asText());
            }
        }
    }

    @Test
    void with_the_bound_raised_the_same_answer_completes() throws IOException {
        try (LlmSimulator sim = LlmSimulator.start(SCRIPT);
                TestServer t = start(sim, Map.of("BATON_MODEL_TIMEOUT", "45s"))) {
            String token = TestServer.token("patient");
            String session = t.api.startSession(token, "tasks");

            List<SseEvent> events;
            try (var stream = t.api.stream(session, token, "answer slowly")) {
                events = stream.all();
            }

            assertThat(events.getLast().event()).as("%s", events).isEqualTo("done");
            JsonNode answer = messages(t, session, token).get(1);
            assertThat(answer.path("status").asText()).isEqualTo("complete");
            assertThat(answer.path("content").asText()).isEqualTo(SLOW_ANSWER);
        }
    }

    private static JsonNode messages(TestServer t, String session, String token) {
        return t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
    }

    /** baton.yaml bounds a model call at one second; the agent's limits allow a minute for it and more for a turn. */
    private TestServer start(LlmSimulator sim, Map<String, String> env) throws IOException {
        Path yaml = Files.writeString(
                dir.resolve("baton.yaml"), """
                server: {port: 0}
                database: {url: "%s"}
                auth: {jwtSecret: "%s"}
                models: {requestTimeout: 1s}
                limits: {llmTimeout: 60s, requestTimeout: 90s}
                roles:
                  student: [sessions:read:self, sessions:write:self, tasks:read:self, tasks:write:self]
                """.formatted(TestServer.sqliteUrl(dir), TestServer.SECRET));
        BatonConfig config = ConfigLoader.load(yaml, env);
        return TestServer.start(config, sim, false, Clock.systemUTC());
    }
}
