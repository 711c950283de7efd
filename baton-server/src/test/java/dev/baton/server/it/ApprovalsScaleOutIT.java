package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.runtime.approval.ApprovalStatus;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcApprovalStore;
import dev.baton.testkit.db.RedisTestServer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Approvals across instances: two servers over one PostgreSQL schema, their turn locks in the Redis at
 * 127.0.0.1:6379 under a fresh key prefix (skipped without Redis or PostgreSQL, except under CI=true). A turn paused
 * on one instance goes on on the other — also once the first is gone — and of two decisions racing on both, exactly
 * one goes on with the turn.
 */
class ApprovalsScaleOutIT {
    static final String REDIS_URL = "redis://127.0.0.1:6379";

    Postgres pg;
    LlmSimulator simulator;
    TestServer first;
    TestServer second;

    @BeforeEach
    void start() {
        RedisTestServer.require();
        pg = Postgres.freshSchema();
        simulator = LlmSimulator.start(TaskAgentScript.create());
        String yaml =
                "rateLimits: { enabled: false }\nturns:\n  redisKeyPrefix: \"baton-it:" + UUID.randomUUID() + ":\"\n";
        first = server(yaml);
        second = server(yaml);
    }

    private TestServer server(String yaml) {
        return TestServer.start(
                LimitsFixture.config(pg.url(), yaml, Map.of("BATON_REDIS_URL", REDIS_URL)),
                simulator,
                false,
                Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        if (first != null) first.close();
        if (second != null) second.close();
        if (simulator != null) simulator.close();
        if (pg != null) pg.close();
    }

    static String token(String user) {
        return LimitsFixture.token(user, "acme", "student", Instant.now());
    }

    /** Pauses a delete on {@code server}; returns {session, callId}. */
    static String[] pauseDelete(TestServer server, String token, String title) {
        assertThat(server.api
                        .post("/v1/tasks", token, "{\"title\":\"" + title + "\"}")
                        .status())
                .isEqualTo(201);
        String session = server.api.startSession(token, "tasks");
        ApiClient.Response paused = server.api.post(
                "/v1/sessions/" + session + "/messages", token, "{\"content\":\"delete " + title + "\"}");
        assertThat(paused.body().path("state").asText()).as(paused.raw()).isEqualTo("awaiting_approval");
        return new String[] {
            session,
            paused.body().path("pendingApprovals").get(0).path("callId").asText()
        };
    }

    static ApiClient.Response approve(TestServer server, String session, String callId, String token) {
        return server.api.post("/v1/sessions/" + session + "/approvals/" + callId, token, "{\"decision\":\"approve\"}");
    }

    static long deleteCalls(TestServer server, String session, String token) {
        JsonNode messages = server.api
                .get("/v1/sessions/" + session + "/messages", token)
                .body()
                .path("messages");
        long n = 0;
        for (JsonNode m : messages)
            for (JsonNode c : m.path("toolCalls"))
                if (c.path("name").asText().equals("delete_task")
                        && c.path("state").asText().equals("succeeded")) n++;
        return n;
    }

    @Test
    void a_turn_paused_on_one_instance_goes_on_on_the_other() {
        String token = token("ivy");
        String[] paused = pauseDelete(first, token, "renew passport");
        assertThat(second.api
                        .get("/v1/sessions/" + paused[0], token)
                        .body()
                        .path("awaitingApproval")
                        .asBoolean())
                .isTrue();

        ApiClient.Response resumed = approve(second, paused[0], paused[1], token);

        assertThat(resumed.status()).as(resumed.raw()).isEqualTo(200);
        assertThat(resumed.body().path("answer").asText()).isEqualTo("I've deleted “renew passport”.");
        assertThat(first.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
    }

    @Test
    void when_the_instance_that_paused_the_turn_is_gone_another_goes_on_with_it() {
        String token = token("jon");
        String[] paused = pauseDelete(first, token, "book dentist");

        first.close();
        first = null;
        ApiClient.Response resumed = approve(second, paused[0], paused[1], token);

        assertThat(resumed.status()).as(resumed.raw()).isEqualTo(200);
        assertThat(resumed.body().path("state").asText()).isEqualTo("completed");
        assertThat(second.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
        assertThat(deleteCalls(second, paused[0], token)).isEqualTo(1);
    }

    @Test
    void a_turn_whose_claiming_instance_died_is_taken_over_by_the_retried_approval_on_another_instance() {
        String token = token("lea");
        String[] paused = pauseDelete(first, token, "water plants");
        // an instance approved the call, claiming the turn, and died before going on with it; its claim's lease has
        // run out (claimed until a moment ago: the clock moved on, nothing waits for it)
        try (Database db = Database.open(pg.url())) {
            Instant now = Instant.now();
            assertThat(new JdbcApprovalStore(db)
                            .decide(
                                    paused[1],
                                    new ApprovalStore.Decision(ApprovalStatus.APPROVED, "lea", null, null),
                                    now,
                                    now.minusSeconds(1)))
                    .isInstanceOf(ApprovalStore.Resumable.class);
        }

        ApiClient.Response resumed = approve(second, paused[0], paused[1], token);

        assertThat(resumed.status()).as(resumed.raw()).isEqualTo(200);
        assertThat(resumed.body().path("state").asText()).isEqualTo("completed");
        assertThat(resumed.body().path("answer").asText()).isEqualTo("I've deleted “water plants”.");
        assertThat(second.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
        assertThat(deleteCalls(second, paused[0], token)).isEqualTo(1);
        // taken over and finished: nothing more to go on with, on either instance
        assertThat(approve(first, paused[0], paused[1], token).status()).isEqualTo(409);
        assertThat(deleteCalls(second, paused[0], token)).isEqualTo(1);
    }

    @Test
    void of_two_approvals_racing_on_two_instances_exactly_one_goes_on_with_the_turn() throws Exception {
        String token = token("kim");
        String[] paused = pauseDelete(first, token, "pay rent");
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<ApiClient.Response> answers = new ArrayList<>();
        try {
            List<Future<ApiClient.Response>> racing = new ArrayList<>();
            for (TestServer server : List.of(first, second)) {
                racing.add(pool.submit(() -> {
                    go.await();
                    return approve(server, paused[0], paused[1], token);
                }));
            }
            go.countDown();
            for (Future<ApiClient.Response> f : racing) answers.add(f.get());
        } finally {
            pool.shutdownNow();
        }

        assertThat(answers).filteredOn(r -> r.status() == 200).hasSize(1);
        assertThat(answers).filteredOn(r -> r.status() != 200).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(409);
            assertThat(r.body().path("error").path("code").asText())
                    .isIn("approval_already_decided", "turn_in_progress");
        });
        assertThat(deleteCalls(second, paused[0], token)).isEqualTo(1);
        assertThat(first.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
    }
}
