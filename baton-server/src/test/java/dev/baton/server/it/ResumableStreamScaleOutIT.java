package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.RedisTestServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dropped stream taken up again on another instance: two servers over one PostgreSQL schema keep their turns'
 * events in the Redis at 127.0.0.1:6379 (Redis Streams, a fresh key prefix; skipped without Redis or PostgreSQL,
 * except under CI=true).
 */
class ResumableStreamScaleOutIT {
    static final String REDIS_URL = "redis://127.0.0.1:6379";

    static Postgres pg;
    static LlmSimulator simulator;
    static TestServer first;
    static TestServer second;

    @BeforeAll
    static void start() {
        RedisTestServer.require();
        pg = Postgres.freshSchema();
        simulator = LlmSimulator.start(SimulatorScript.builder()
                .rule(Rule.when(new Condition.UserContains("story"), Reply.text(ResumableStreamIT.STORY))
                        .withPacing(new Pacing(Duration.ZERO, 60, 1)))
                .always(Reply.text("Fine answer."))
                .build());
        String prefix = "baton-it:" + UUID.randomUUID() + ":";
        String yaml = "rateLimits: { enabled: false }\nturns: { redisKeyPrefix: \"" + prefix
                + "\" }\nstreams: { redisKeyPrefix: \"" + prefix + "\" }\n";
        first = TestServer.start(
                LimitsFixture.config(pg.url(), yaml, Map.of("BATON_REDIS_URL", REDIS_URL)),
                simulator,
                false,
                Clock.systemUTC());
        second = TestServer.start(
                LimitsFixture.config(pg.url(), yaml, Map.of("BATON_REDIS_URL", REDIS_URL)),
                simulator,
                false,
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (first != null) first.close();
        if (second != null) second.close();
        if (simulator != null) simulator.close();
        if (pg != null) pg.close();
    }

    @Test
    void a_stream_dropped_on_one_instance_goes_on_from_another_without_gaps_or_duplicates() {
        String token = LimitsFixture.token("zoe", "acme", "student", Instant.now());
        String session = first.api.startSession(token, "tasks");
        List<SseEvent> seen = new ArrayList<>();
        try (ApiClient.SseStream stream = ResumableStreamIT.resumableStory(first, session, token)) {
            seen.addAll(stream.until(e -> e.id() == 4));
        }
        String turnId = seen.getFirst().data().path("turnId").asText();

        try (ApiClient.SseStream rest = second.api.openGet(
                ResumableStreamIT.eventsPath(session, turnId), token, Map.of("Last-Event-ID", "4"))) {
            assertThat(rest.status).isEqualTo(200);
            seen.addAll(rest.all());
        }

        ResumableStreamIT.assertNumberedFromOneWithoutGaps(seen);
        assertThat(seen.getLast().event()).isEqualTo("done");
        assertThat(ResumableStreamIT.text(seen)).isEqualTo(ResumableStreamIT.STORY);
        assertThat(second.api
                        .get("/v1/sessions/" + session, token)
                        .body()
                        .path("lastTurnId")
                        .asText())
                .isEqualTo(turnId);
    }

    @Test
    void another_instance_knows_no_turn_of_another_user() {
        String token = LimitsFixture.token("yan", "acme", "student", Instant.now());
        String session = first.api.startSession(token, "tasks");
        first.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}");
        String turnId = first.api
                .get("/v1/sessions/" + session, token)
                .body()
                .path("lastTurnId")
                .asText();
        String stranger = LimitsFixture.token("xia", "acme", "student", Instant.now());

        try (ApiClient.SseStream s =
                second.api.openGet(ResumableStreamIT.eventsPath(session, turnId), stranger, Map.of())) {
            assertThat(s.status).isEqualTo(404);
        }
        try (ApiClient.SseStream s =
                second.api.openGet(ResumableStreamIT.eventsPath(session, turnId), token, Map.of())) {
            assertThat(s.status).isEqualTo(200);
            assertThat(s.all()).extracting(SseEvent::event).endsWith("done");
        }
    }
}
