package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.PostgresTestDatabase;
import dev.baton.testkit.db.RedisTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash drill (c), with real processes: an instance is killed (kill -9) while a transactional tool ({@code add_task})
 * is inside its transaction, its write made but not committed; the other instance (PostgreSQL + Redis) takes the turn
 * over. The write died with its instance, so the call, in flight in the checkpoint, is run again: the task exists once,
 * made by the run whose record the turn keeps. Without the transaction the write would have committed on its own and
 * the call would be reported to the model as of unknown outcome.
 *
 * <p>The tool is stopped mid-transaction without timing: the test holds a lock on the tasks table and waits until the
 * server's INSERT waits for it (pg_stat_activity), kills the server, then lets go of the lock.
 */
class TransactionalToolCrashIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] REQUEST =
            "{\"content\":\"note the transactional task\"}".getBytes(StandardCharsets.UTF_8);
    private static final Map<String, String> KEY = Map.of("Idempotency-Key", "transactional-tool-1");

    @TempDir
    static Path workDir;

    static LlmSimulator sim;
    static PostgresTestDatabase pg;

    @BeforeAll
    static void setUp() throws Exception {
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays(
                        "note the transactional task",
                        Reply.toolCall("add_task", "{\"title\":\"transactional first\"}"))
                .whenToolResult("add_task", Reply.text("Saved it."))
                .fallback("Fine answer.")
                .build());
        pg = PostgresTestDatabase.create();
    }

    @AfterAll
    static void tearDown() {
        if (sim != null) sim.close();
        if (pg != null) pg.drop();
    }

    @Test
    void an_instance_killed_inside_a_transactional_tool_leaves_no_write_and_the_other_instance_makes_it_once()
            throws Exception {
        RedisTestServer.require();
        String shared = "turns:\n  redisKeyPrefix: \"baton-it:" + UUID.randomUUID() + ":\"\n";
        Path dir1 = instanceDir("tx-1", "api-1", shared);
        Path dir2 = instanceDir("tx-2", "api-2", shared);
        String token = TestServer.token("transactional-tool");
        // both start at once: a start costs seconds
        CompletableFuture<ServerProcess> starting = CompletableFuture.supplyAsync(() -> start(dir1));
        try (ServerProcess survivor = start(dir2)) {
            String session;
            try (ServerProcess doomed = starting.join()) {
                ApiClient api = new ApiClient(doomed.url());
                session = api.startSession(token, "transactional");
                String path = messages(session);
                try (Connection lock = lockTable("tasks")) {
                    CompletableFuture<ApiClient.Response> waiting =
                            CompletableFuture.supplyAsync(() -> api.post(path, token, REQUEST, KEY));
                    // add_task has written its row inside its transaction and waits: nothing is committed yet
                    awaitBlockedOn("into tasks");
                    doomed.kill();
                    lock.rollback();
                    assertThat(waiting).failsWithin(Duration.ofSeconds(30));
                }
            }
            ApiClient api = new ApiClient(survivor.url());
            // the other instance takes the turn over once the dead one's lease (3 s) ran out
            assertThat(awaitAnswer(api, token, session).path("content").asText())
                    .isEqualTo("Saved it.");

            List<String> taskIds = strings("SELECT id FROM tasks WHERE title = ?", "transactional first");
            assertThat(taskIds).as("the tool's effect, once").hasSize(1);
            List<String> calls =
                    strings("SELECT state || ' ' || tool_result FROM tool_calls WHERE session_id = ?", session);
            assertThat(calls)
                    .as("one call recorded: the run that made the task")
                    .singleElement();
            String call = calls.getFirst();
            assertThat(call).startsWith("succeeded ");
            JsonNode result = JSON.readTree(call.substring("succeeded ".length()));
            assertThat(result.path("task").path("id").asText()).isEqualTo(taskIds.getFirst());

            assertOneExchange(api, token, session);
            // the model call that asked for the tool (in the checkpoint) and the one after the takeover
            assertThat(strings("SELECT id FROM ai_usage WHERE session_id = ?", session))
                    .hasSize(2);
            assertThat(strings("SELECT turn_id FROM running_turns WHERE session_id = ?", session))
                    .as("the lease ended with the answer")
                    .isEmpty();
            // the client's retry with its key gets the finished turn's answer; nothing runs again
            ApiClient.Response retried = api.post(messages(session), token, REQUEST, KEY);
            assertThat(retried.status()).isEqualTo(200);
            assertThat(retried.body().path("answer").asText()).isEqualTo("Saved it.");
            assertThat(strings("SELECT id FROM tasks WHERE title = ?", "transactional first"))
                    .hasSize(1);
        }
    }

    private static ServerProcess start(Path dir) {
        try {
            return ServerProcess.start(dir, ServerEnv.withRedis(pg.url(), sim.baseUrl(), dir.resolve("baton.yaml")));
        } catch (Exception e) {
            throw new IllegalStateException("the server in " + dir + " did not start", e);
        }
    }

    /** A working folder for one instance: an agent with add_task, and a config that leases turns (3 s, 1 s beat). */
    private static Path instanceDir(String name, String instanceId, String more) throws Exception {
        Path dir = Files.createDirectories(workDir.resolve(name));
        Files.createDirectories(dir.resolve("agents"));
        Files.writeString(dir.resolve("agents").resolve("transactional.yaml"), """
                id: transactional
                name: Transactional tools agent
                model: default
                tools: [add_task]
                systemPrompt: You help.
                """);
        Files.writeString(dir.resolve("baton.yaml"), """
                limits:
                  requestTimeout: 60s
                agents:
                  dirs: [agents]
                durableTurns:
                  enabled: true
                  instanceId: %s
                  lease: 3s
                  heartbeat: 1s
                """.formatted(instanceId) + more);
        return dir;
    }

    private static String messages(String session) {
        return "/v1/sessions/" + session + "/messages";
    }

    /** Waits until the session holds an assistant message, and returns it. */
    private static JsonNode awaitAnswer(ApiClient api, String token, String session) {
        List<JsonNode> found = new ArrayList<>();
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    found.clear();
                    api.get(messages(session), token).body().path("messages").forEach(m -> {
                        if (m.path("role").asText().equals("assistant")) found.add(m);
                    });
                    return !found.isEmpty();
                });
        assertThat(found.getFirst().path("status").asText()).isEqualTo("complete");
        return found.getFirst();
    }

    private static void assertOneExchange(ApiClient api, String token, String session) {
        JsonNode messages = api.get(messages(session), token).body().path("messages");
        List<String> said = new ArrayList<>();
        messages.forEach(
                m -> said.add(m.path("role").asText() + ": " + m.path("content").asText()));
        assertThat(said)
                .as("one user message, one assistant message")
                .containsExactly("user: note the transactional task", "assistant: Saved it.");
    }

    /** A connection holding {@code table} so that writes to it wait (reads go on); roll it back to let them in. */
    private static Connection lockTable(String table) throws Exception {
        Connection c = DriverManager.getConnection(pg.url());
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("LOCK TABLE " + table + " IN EXCLUSIVE MODE");
        }
        return c;
    }

    /** Waits until a server statement matching {@code sql} waits for a lock: the server is inside that write. */
    private static void awaitBlockedOn(String sql) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !strings(
                                "SELECT pid::text FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                        + " AND query ILIKE ?",
                                "%" + sql + "%")
                        .isEmpty());
    }

    private static List<String> strings(String sql, String arg) throws Exception {
        try (Connection c = DriverManager.getConnection(pg.url());
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            List<String> values = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) values.add(rs.getString(1));
            }
            return values;
        }
    }
}
