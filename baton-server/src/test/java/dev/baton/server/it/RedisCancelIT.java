package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.RedisTestServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances on one SQLite file whose turn locks and cancel signals live in the Redis at 127.0.0.1:6379, under a
 * fresh key prefix (skipped when Redis is not running, except under CI=true): one turn per session across both, and
 * a cancel sent to either instance stops the turn wherever it runs.
 */
class RedisCancelIT {
    static final String REDIS_URL = "redis://127.0.0.1:6379";
    static final String STORY = "Once upon a time " + "there was a very long story that went on and on ".repeat(40);

    @TempDir
    static Path dir;

    static LlmSimulator simulator;
    static TestServer first;
    static TestServer second;

    @BeforeAll
    static void start() {
        RedisTestServer.require();
        simulator = LlmSimulator.start(SimulatorScript.builder()
                // one word per chunk, 40 words a second: a turn that runs until the test cancels it
                .rule(Rule.when(new Condition.UserContains("story"), Reply.text(STORY))
                        .withPacing(new Pacing(Duration.ZERO, 40, 1)))
                .always(Reply.text("Fine answer."))
                .build());
        String yaml =
                "rateLimits: { enabled: false }\nturns:\n  redisKeyPrefix: \"baton-it:" + UUID.randomUUID() + ":\"\n";
        String db = "jdbc:sqlite:" + dir.resolve("shared.db");
        first = TestServer.start(
                LimitsFixture.config(db, yaml, Map.of("BATON_REDIS_URL", REDIS_URL)),
                simulator,
                false,
                Clock.systemUTC());
        second = TestServer.start(
                LimitsFixture.config(db, yaml, Map.of("BATON_REDIS_URL", REDIS_URL)),
                simulator,
                false,
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (first != null) first.close();
        if (second != null) second.close();
        if (simulator != null) simulator.close();
    }

    @Test
    void a_turn_on_one_instance_is_locked_and_cancelled_from_the_other() {
        String token = LimitsFixture.token("redis-canceller", null, "student", java.time.Instant.now());
        String session = first.api.startSession(token, "tasks");
        int disconnectsBefore = simulator.clientDisconnects();
        List<SseEvent> events;
        try (var stream = first.api.stream(session, token, "tell me a story")) {
            events = new ArrayList<>(stream.until(e -> e.event().equals("chunk")));

            ApiClient.Response busy = RateLimitIT.send(second, session, token, "are you there?");
            assertThat(busy.status()).isEqualTo(409);
            assertThat(busy.raw()).contains("turn_in_progress");

            ApiClient.Response cancel = second.api.post("/v1/sessions/" + session + "/cancel", token, "{}");
            assertThat(cancel.status()).isEqualTo(200);
            assertThat(cancel.body().path("cancelled").asBoolean()).isTrue();
            events.addAll(stream.all());
        }
        SseEvent last = events.getLast();
        assertThat(last.event()).isEqualTo("error");
        assertThat(last.data().path("code").asText()).isEqualTo("cancelled");
        assertThat(simulator.awaitClientDisconnects(disconnectsBefore + 1, Duration.ofSeconds(10)))
                .isTrue();

        JsonNode stored = messages(second, session, token);
        assertThat(stored).hasSize(2);
        JsonNode partial = stored.get(1);
        assertThat(partial.path("status").asText()).isEqualTo("cancelled");
        assertThat(partial.path("content").asText()).isNotEmpty();
        assertThat(STORY).startsWith(partial.path("content").asText());
        assertThat(partial.path("content").asText().length()).isLessThan(STORY.length());

        // the turn is over and its lock released: nothing to cancel, and the other instance answers the session
        assertThat(second.api
                        .post("/v1/sessions/" + session + "/cancel", token, "{}")
                        .body()
                        .path("cancelled")
                        .asBoolean())
                .isFalse();
        await().atMost(Duration.ofSeconds(5))
                .until(() ->
                        RateLimitIT.send(second, session, token, "hello again").status() == 200);
        assertThat(messages(first, session, token)).hasSize(4);
    }

    private static JsonNode messages(TestServer server, String session, String token) {
        return server.api
                .get("/v1/sessions/" + session + "/messages", token)
                .body()
                .path("messages");
    }
}
