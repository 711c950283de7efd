package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.db.PostgresTestDatabase;
import dev.baton.testkit.db.RedisTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the packaged server while a tool call awaits approval, then another instance on the same PostgreSQL
 * schema and Redis: the paused turn is still there, the approval given on the new instance runs the held
 * {@code delete_task} exactly once and the turn completes. Nothing of the first process (no shutdown hook, no
 * rollback) is needed: the pause was stored before the client heard of it.
 */
class ApprovalCrashProcessIT {
    @TempDir
    static Path workDir;

    static PostgresTestDatabase pg;
    static LlmSimulator sim;
    static Map<String, String> env;

    @BeforeAll
    static void setUp() throws Exception {
        RedisTestServer.require();
        pg = PostgresTestDatabase.create();
        sim = LlmSimulator.start(TaskAgentScript.create());
        Files.writeString(workDir.resolve("baton.yaml"), """
                rateLimits: { enabled: false }
                turns:
                  redisKeyPrefix: "baton-it:%s:"
                """.formatted(UUID.randomUUID()));
        env = ServerEnv.withRedis(pg.url(), sim.baseUrl(), workDir.resolve("baton.yaml"));
    }

    @AfterAll
    static void tearDown() {
        if (sim != null) sim.close();
        if (pg != null) pg.drop();
    }

    @Test
    void a_call_awaiting_approval_survives_kill_9_and_runs_once_when_approved_on_another_instance() throws Exception {
        String token = TestServer.token("crash-approval");
        String session;
        String callId;
        try (ServerProcess doomed = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(doomed.url());
            assertThat(api.post("/v1/tasks", token, "{\"title\":\"renew passport\"}")
                            .status())
                    .isEqualTo(201);
            session = api.startSession(token, "tasks");
            ApiClient.Response paused =
                    api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"delete renew passport\"}");
            assertThat(paused.body().path("state").asText()).as(paused.raw()).isEqualTo("awaiting_approval");
            callId =
                    paused.body().path("pendingApprovals").get(0).path("callId").asText();

            doomed.kill();
        }

        try (ServerProcess next = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(next.url());
            JsonNode waiting = api.get("/v1/sessions/" + session, token).body();
            assertThat(waiting.path("awaitingApproval").asBoolean())
                    .as(waiting.toString())
                    .isTrue();
            assertThat(api.get("/v1/tasks", token).body().path("tasks")).hasSize(1);

            ApiClient.Response resumed =
                    api.post("/v1/sessions/" + session + "/approvals/" + callId, token, "{\"decision\":\"approve\"}");

            assertThat(resumed.status()).as(resumed.raw()).isEqualTo(200);
            assertThat(resumed.body().path("state").asText()).isEqualTo("completed");
            assertThat(resumed.body().path("answer").asText()).isEqualTo("I've deleted “renew passport”.");
            assertThat(api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
            assertThat(succeededDeletes(api, session, token)).isEqualTo(1);
            // deciding again is refused: nothing runs a second time
            ApiClient.Response again =
                    api.post("/v1/sessions/" + session + "/approvals/" + callId, token, "{\"decision\":\"approve\"}");
            assertThat(again.status()).isEqualTo(409);
            assertThat(succeededDeletes(api, session, token)).isEqualTo(1);
        }
    }

    private static long succeededDeletes(ApiClient api, String session, String token) {
        long n = 0;
        for (JsonNode m :
                api.get("/v1/sessions/" + session + "/messages", token).body().path("messages"))
            for (JsonNode c : m.path("toolCalls"))
                if (c.path("name").asText().equals("delete_task")
                        && c.path("state").asText().equals("succeeded")) n++;
        return n;
    }
}
