package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.PostgresTestDatabase;
import dev.baton.testkit.db.RedisTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable turns with real processes: the packaged server is killed (kill -9) in the middle of a turn, and the turn is
 * taken over — by the same instance restarted on SQLite, or by a second instance sharing PostgreSQL — and finishes
 * from its last checkpoint: one user message, one assistant message, each tool's effect once, the usage of the model
 * calls the checkpoint holds and of those made after the takeover. A client that retries its request with the same
 * Idempotency-Key gets the answer of the turn taken over.
 *
 * <p>Each phase is reached without timing: the simulator holds the model call ({@link Fault.HoldAfter}) and the test
 * waits until it has seen the call (or the stream has sent a chunk) before it kills; the latch is released before the
 * takeover, so the call made again goes through.
 */
class DurableTurnsProcessIT {
    private static final String STORY = "Once upon a time " + "there was a turn that outlived its server ".repeat(20);
    private static final String TOOL_REQUEST = "{\"content\":\"note the durable task\"}";
    private static final Map<String, String> KEY = Map.of("Idempotency-Key", "durable-tool-1");
    private static final byte[] SHARED_REQUEST =
            "{\"content\":\"note the shared task\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    private static final Map<String, String> SHARED_KEY = Map.of("Idempotency-Key", "durable-shared-1");
    private static final CountDownLatch STORY_HELD = new CountDownLatch(1);
    private static final CountDownLatch AFTER_TOOL_HELD = new CountDownLatch(1);
    private static final CountDownLatch SCALE_OUT_HELD = new CountDownLatch(1);

    @TempDir
    static Path workDir;

    static LlmSimulator sim;
    static PostgresTestDatabase pg;

    @BeforeAll
    static void setUp() throws Exception {
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays(
                        "tell me a durable story", new Reply.Failure(Fault.holdAfter(2, STORY_HELD), Reply.text(STORY)))
                .whenUserSays("note the durable task", Reply.toolCall("add_task", "{\"title\":\"durable first\"}"))
                .whenUserSays(
                        "note the shared task",
                        Reply.toolCall("create_note", "{\"title\":\"shared first\",\"content\":\"once\"}"))
                .whenToolResult(
                        "add_task", new Reply.Failure(Fault.holdAfter(0, AFTER_TOOL_HELD), Reply.text("Saved it.")))
                .whenToolResult(
                        "create_note", new Reply.Failure(Fault.holdAfter(0, SCALE_OUT_HELD), Reply.text("Noted it.")))
                .fallback("Fine answer.")
                .build());
        pg = PostgresTestDatabase.create();
        Files.createDirectories(workDir.resolve("agents"));
        Files.writeString(workDir.resolve("agents").resolve("durable.yaml"), """
                id: durable
                name: Durable turns agent
                model: default
                tools: [add_task, create_note]
                systemPrompt: You help.
                """);
    }

    @AfterAll
    static void tearDown() {
        if (sim != null) sim.close();
        if (pg != null) pg.drop();
    }

    @Test
    void a_single_instance_killed_while_the_model_streams_finishes_the_turn_before_the_next_message() throws Exception {
        Path dir = instanceDir("stream", "solo", "30s", "10s");
        Map<String, String> env = env(dir, "jdbc:sqlite:" + dir.resolve("baton.db"));
        String token = TestServer.token("durable-stream");
        String session;
        try (ServerProcess server = ServerProcess.start(dir, env)) {
            ApiClient api = new ApiClient(server.url());
            session = api.startSession(token, "durable");
            try (ApiClient.SseStream stream =
                    api.openStream(messages(session), token, "{\"content\":\"tell me a durable story\"}")) {
                assertThat(stream.status).isEqualTo(200);
                assertThat(stream.until(e -> e.event().equals("chunk")))
                        .last()
                        .matches(e -> e.event().equals("chunk"));
                server.kill();
            }
        }
        STORY_HELD.countDown();
        try (ServerProcess server = ServerProcess.start(dir, env)) {
            ApiClient api = new ApiClient(server.url());
            // a new message at once (the heartbeat's sweep is 10 s away): the turn taken over answers first
            var next = api.post(messages(session), token, "{\"content\":\"and now?\"}");
            assertThat(next.status()).isEqualTo(200);
            assertThat(next.body().path("answer").asText()).isEqualTo("Fine answer.");
            JsonNode messages = api.get(messages(session), token).body().path("messages");
            List<String> said = new ArrayList<>();
            messages.forEach(m ->
                    said.add(m.path("role").asText() + ": " + m.path("content").asText()));
            assertThat(said)
                    .containsExactly(
                            "user: tell me a durable story",
                            "assistant: " + STORY,
                            "user: and now?",
                            "assistant: Fine answer.");
            // the model call the crash cut was made again (the cut call's usage was never reported), then the next
            assertThat(count(sqlite(dir), "SELECT count(*) FROM ai_usage WHERE session_id = ?", session))
                    .isEqualTo(2);
        }
    }

    @Test
    void a_single_instance_killed_just_after_a_tool_ran_does_not_run_it_again_and_the_retry_gets_the_answer()
            throws Exception {
        Path dir = instanceDir("tool", "solo");
        Map<String, String> env = env(dir, "jdbc:sqlite:" + dir.resolve("baton.db"));
        String token = TestServer.token("durable-tool");
        String session;
        try (ServerProcess server = ServerProcess.start(dir, env)) {
            ApiClient api = new ApiClient(server.url());
            session = api.startSession(token, "durable");
            int before = (int) sim.requestCount();
            try (ApiClient.SseStream stream = api.openStream(messages(session), token, TOOL_REQUEST, KEY)) {
                assertThat(stream.status).isEqualTo(200);
                // the model is asked again after the tool: the tool's step (its row and the checkpoint) is written
                sim.awaitRequest(before + 1, Duration.ofSeconds(60));
                server.kill();
            }
        }
        AFTER_TOOL_HELD.countDown();
        try (ServerProcess server = ServerProcess.start(dir, env)) {
            ApiClient api = new ApiClient(server.url());
            // the client retries with its key: it waits for the turn taken over and gets its answer, not a 409
            var retried = api.post(
                    messages(session), token, TOOL_REQUEST.getBytes(java.nio.charset.StandardCharsets.UTF_8), KEY);
            assertThat(retried.status()).isEqualTo(200);
            assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
            assertThat(retried.body().path("answer").asText()).isEqualTo("Saved it.");
            assertThat(awaitAnswer(api, token, session).path("content").asText())
                    .isEqualTo("Saved it.");
            assertOneExchange(api, token, session, "note the durable task");
            String db = sqlite(dir);
            assertThat(count(db, "SELECT count(*) FROM tasks WHERE title = ?", "durable first"))
                    .as("the tool's effect, once")
                    .isEqualTo(1);
            assertThat(count(
                            db,
                            "SELECT count(*) FROM tool_calls WHERE session_id = ? AND message_id IS NOT NULL",
                            session))
                    .as("its call, recorded once and linked to the answer")
                    .isEqualTo(1);
            // the call that asked for the tool (from the checkpoint) and the one made after the takeover
            assertThat(count(db, "SELECT count(*) FROM ai_usage WHERE session_id = ?", session))
                    .isEqualTo(2);
        }
    }

    @Test
    void a_turn_of_an_instance_killed_just_after_a_tool_ran_is_finished_by_the_other_instance() throws Exception {
        RedisTestServer.require();
        String shared = "turns:\n  redisKeyPrefix: \"baton-it:" + UUID.randomUUID() + ":\"\n";
        Path dir1 = instanceDir("pg-1", "api-1", "3s", "1s", shared);
        Path dir2 = instanceDir("pg-2", "api-2", "3s", "1s", shared);
        String token = TestServer.token("durable-shared");
        try (ServerProcess survivor = ServerProcess.start(dir2, withRedis(env(dir2, pg.url())))) {
            String session;
            try (ServerProcess doomed = ServerProcess.start(dir1, withRedis(env(dir1, pg.url())))) {
                ApiClient api = new ApiClient(doomed.url());
                session = api.startSession(token, "durable");
                String path = messages(session);
                int before = (int) sim.requestCount();
                // a JSON client waits for the answer on the instance that dies
                CompletableFuture<ApiClient.Response> waiting =
                        CompletableFuture.supplyAsync(() -> api.post(path, token, SHARED_REQUEST, SHARED_KEY));
                sim.awaitRequest(before + 1, Duration.ofSeconds(60));
                doomed.kill();
                assertThat(waiting).failsWithin(Duration.ofSeconds(30));
            }
            SCALE_OUT_HELD.countDown();
            ApiClient api = new ApiClient(survivor.url());
            // the client retries with its key on the other instance, as its load balancer would send it: while the
            // dead instance's lease lasts (3 s) the key is in use (409); then the retry waits for the turn taken over
            AtomicReference<ApiClient.Response> retried = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        retried.set(api.post(messages(session), token, SHARED_REQUEST, SHARED_KEY));
                        return retried.get().status() != 409;
                    });
            assertThat(retried.get().status()).isEqualTo(200);
            assertThat(retried.get().headers().firstValue("Idempotent-Replayed"))
                    .hasValue("true");
            assertThat(retried.get().body().path("answer").asText()).isEqualTo("Noted it.");
            // the dead instance's Redis lock on the session lives 90 s (request timeout + margin): the taker breaks it
            assertThat(awaitAnswer(api, token, session, Duration.ofSeconds(45))
                            .path("content")
                            .asText())
                    .isEqualTo("Noted it.");
            assertOneExchange(api, token, session, "note the shared task");
            assertThat(count(pg.url(), "SELECT count(*) FROM notes WHERE title = ?", "shared first"))
                    .isEqualTo(1);
            assertThat(count(pg.url(), "SELECT count(*) FROM tool_calls WHERE session_id = ?", session))
                    .isEqualTo(1);
            assertThat(count(pg.url(), "SELECT count(*) FROM ai_usage WHERE session_id = ?", session))
                    .isEqualTo(2);
            assertThat(count(pg.url(), "SELECT count(*) FROM running_turns WHERE session_id = ?", session))
                    .as("the lease ended with the answer")
                    .isZero();
        }
    }

    /** A working folder for one instance: its agents, and a config that leases turns under {@code instanceId}. */
    private static Path instanceDir(String name, String instanceId) throws Exception {
        return instanceDir(name, instanceId, "3s", "1s");
    }

    private static Path instanceDir(String name, String instanceId, String lease, String heartbeat) throws Exception {
        return instanceDir(name, instanceId, lease, heartbeat, "");
    }

    private static Path instanceDir(String name, String instanceId, String lease, String heartbeat, String more)
            throws Exception {
        Path dir = Files.createDirectories(workDir.resolve(name));
        Files.createDirectories(dir.resolve("agents"));
        Files.copy(
                workDir.resolve("agents").resolve("durable.yaml"),
                dir.resolve("agents").resolve("durable.yaml"));
        Files.writeString(dir.resolve("baton.yaml"), """
                limits:
                  requestTimeout: 60s
                agents:
                  dirs: [agents]
                durableTurns:
                  enabled: true
                  instanceId: %s
                  lease: %s
                  heartbeat: %s
                """.formatted(instanceId, lease, heartbeat) + more);
        return dir;
    }

    private static Map<String, String> env(Path dir, String dbUrl) {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_DB_URL", dbUrl);
        env.put("BATON_JWT_SECRET", TestServer.SECRET);
        env.put("OPENAI_API_KEY", "sk-test");
        env.put("OPENAI_BASE_URL", sim.baseUrl());
        env.put("BATON_CONFIG", dir.resolve("baton.yaml").toString());
        return env;
    }

    /** Session locks shared through the local Redis (the test's own key prefix is in its config). */
    private static Map<String, String> withRedis(Map<String, String> env) {
        env.put("BATON_REDIS_URL", "redis://127.0.0.1:6379");
        return env;
    }

    private static String messages(String session) {
        return "/v1/sessions/" + session + "/messages";
    }

    /** Waits until the session holds an assistant message, and returns it. */
    private static JsonNode awaitAnswer(ApiClient api, String token, String session) {
        return awaitAnswer(api, token, session, Duration.ofSeconds(90));
    }

    private static JsonNode awaitAnswer(ApiClient api, String token, String session, Duration within) {
        List<JsonNode> found = new ArrayList<>();
        await().atMost(within).pollInterval(Duration.ofMillis(250)).until(() -> {
            found.clear();
            api.get(messages(session), token).body().path("messages").forEach(m -> {
                if (m.path("role").asText().equals("assistant")) found.add(m);
            });
            return !found.isEmpty();
        });
        assertThat(found.getFirst().path("status").asText()).isEqualTo("complete");
        return found.getFirst();
    }

    private static void assertOneExchange(ApiClient api, String token, String session, String content) {
        JsonNode messages = api.get(messages(session), token).body().path("messages");
        List<String> roles = new ArrayList<>();
        messages.forEach(m -> roles.add(m.path("role").asText()));
        assertThat(roles).as("one user message, one assistant message").containsExactly("user", "assistant");
        assertThat(messages.get(0).path("content").asText()).isEqualTo(content);
    }

    private static String sqlite(Path dir) {
        return "jdbc:sqlite:" + dir.resolve("baton.db");
    }

    private static int count(String url, String sql, String arg) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
