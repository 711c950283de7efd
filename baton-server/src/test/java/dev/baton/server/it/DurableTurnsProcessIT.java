package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Condition;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.PostgresTestDatabase;
import dev.baton.testkit.db.RedisTestServer;
import dev.baton.testkit.process.Haproxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
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
    private static final CountDownLatch RELAY_HELD = new CountDownLatch(1);

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
                .when(
                        Condition.ToolResult.of("add_task", "relay first"),
                        new Reply.Failure(Fault.holdAfter(0, RELAY_HELD), Reply.text("Relayed it.")))
                .whenUserSays("note the relay task", Reply.toolCall("add_task", "{\"title\":\"relay first\"}"))
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
        Path dir = instanceDir("stream", "solo", "90s", "30s");
        Map<String, String> env = env(dir, "jdbc:sqlite:" + dir.resolve("baton.db"));
        String token = TestServer.token("durable-stream");
        String session;
        String turnId;
        try (ServerProcess server = ServerProcess.start(dir, env)) {
            ApiClient api = new ApiClient(server.url());
            session = api.startSession(token, "durable");
            try (ApiClient.SseStream stream =
                    api.openStream(messages(session), token, "{\"content\":\"tell me a durable story\"}")) {
                assertThat(stream.status).isEqualTo(200);
                List<SseEvent> seen = stream.until(e -> e.event().equals("chunk"));
                assertThat(seen).last().matches(e -> e.event().equals("chunk"));
                turnId = seen.getFirst().data().path("turnId").asText();
                server.kill();
            }
        }
        STORY_HELD.countDown();
        try (ServerProcess server = ServerProcess.start(dir, env)) {
            ApiClient api = new ApiClient(server.url());
            // a new message at once (the heartbeat's sweep is 30 s away): the turn taken over answers first
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
            // the in-process event log died with the process: the restarted instance's log holds the run that went
            // on, from its turn.started, whose answer so far replaces what the client had assembled
            try (ApiClient.SseStream events =
                    api.openGet("/v1/sessions/" + session + "/turns/" + turnId + "/events", token, Map.of())) {
                assertThat(events.status).isEqualTo(200);
                List<SseEvent> run = events.all();
                assertThat(run.getFirst().event()).isEqualTo("turn.started");
                assertThat(run.getFirst().data().has("answerSoFar")).isTrue();
                assertThat(run.getLast().event()).isEqualTo("done");
                assertThat(assembled(run)).isEqualTo(STORY);
            }
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
            try (ApiClient.SseStream stream = api.openStream(messages(session), token, TOOL_REQUEST, KEY)) {
                assertThat(stream.status).isEqualTo(200);
                // the model is asked again after the tool: the tool's step (its row and the checkpoint) is written
                awaitAsked(afterTool("add_task", "durable first"), 1);
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

    /**
     * Two instances on PostgreSQL + Redis, HAProxy in front. Instance 1 dies while it streams one turn and while a
     * JSON client waits for another: the streaming client reconnects through the load balancer with its
     * {@code Last-Event-ID} and gets exactly the events it had not seen; the JSON client's retry through the load
     * balancer waits for the turn taken over instead of a 409. Then a turn's instance dies, and so does the instance
     * that took it over, during its takeover: the turn is finished by a third boot.
     */
    @Test
    void turns_of_killed_instances_are_finished_elsewhere_and_their_clients_notice_only_a_pause() throws Exception {
        RedisTestServer.require();
        String shared = "turns:\n  redisKeyPrefix: \"baton-it:" + UUID.randomUUID() + ":\"\n";
        Path dir1 = instanceDir("pg-1", "api-1", "3s", "1s", shared);
        Path dir2 = instanceDir("pg-2", "api-2", "3s", "1s", shared);
        String token = TestServer.token("durable-shared");
        ServerProcess second =
                ServerProcess.start(dir2, ServerEnv.withRedis(pg.url(), sim.baseUrl(), dir2.resolve("baton.yaml")));
        try {
            try (ServerProcess first = ServerProcess.start(
                            dir1, ServerEnv.withRedis(pg.url(), sim.baseUrl(), dir1.resolve("baton.yaml")));
                    Haproxy balancer = Haproxy.start(workDir.resolve("haproxy"), List.of(first.url(), second.url()))) {
                aStreamAndARetryOutliveTheirInstance(first, new ApiClient(balancer.url()), token);
            }
            // instance 1 again (the same name, a new boot): the second instance's turn dies with it, and instance 1
            // dies in turn while its model call made again is held; instance 2's next boot finishes the turn
            try (ServerProcess again = ServerProcess.start(
                    dir1, ServerEnv.withRedis(pg.url(), sim.baseUrl(), dir1.resolve("baton.yaml")))) {
                String session = aTurnOutlivesTwoInstances(second, again, token);
                second = ServerProcess.start(
                        dir2, ServerEnv.withRedis(pg.url(), sim.baseUrl(), dir2.resolve("baton.yaml")));
                awaitEpoch(session, 3);
                awaitAsked(afterTool("add_task", "relay first"), 3);
                RELAY_HELD.countDown();
                ApiClient api = new ApiClient(second.url());
                assertThat(awaitAnswer(api, token, session, Duration.ofSeconds(45))
                                .path("content")
                                .asText())
                        .isEqualTo("Relayed it.");
                assertOneExchange(api, token, session, "note the relay task");
                assertThat(count(pg.url(), "SELECT count(*) FROM tasks WHERE title = ?", "relay first"))
                        .as("the tool's effect, once")
                        .isEqualTo(1);
                assertThat(count(pg.url(), "SELECT count(*) FROM tool_calls WHERE session_id = ?", session))
                        .isEqualTo(1);
                // the call that asked for the tool and the one that answered; the two cut ones reported no usage
                assertThat(count(pg.url(), "SELECT count(*) FROM ai_usage WHERE session_id = ?", session))
                        .isEqualTo(2);
                assertThat(count(pg.url(), "SELECT count(*) FROM running_turns WHERE session_id = ?", session))
                        .isZero();
            }
        } finally {
            second.close();
        }
    }

    private void aStreamAndARetryOutliveTheirInstance(ServerProcess doomed, ApiClient balanced, String token)
            throws Exception {
        ApiClient direct = new ApiClient(doomed.url());
        String storySession = direct.startSession(token, "durable");
        String noteSession = direct.startSession(token, "durable");
        // a JSON client waits for its answer on instance 1 ...
        CompletableFuture<ApiClient.Response> waiting = CompletableFuture.supplyAsync(
                () -> direct.post(messages(noteSession), token, SHARED_REQUEST, SHARED_KEY));
        // ... and a client follows a streamed answer there
        List<SseEvent> seen;
        try (ApiClient.SseStream stream =
                direct.openStream(messages(storySession), token, "{\"content\":\"tell me a durable story\"}")) {
            assertThat(stream.status).isEqualTo(200);
            // the chunks sent after this one reached the log before the socket: the reconnected client gets them
            seen = stream.until(e -> e.event().equals("chunk"));
            // the note's tool ran: the model is asked again (held)
            awaitAsked(afterTool("create_note", "shared first"), 1);
            doomed.kill();
        }
        assertThat(waiting).failsWithin(Duration.ofSeconds(30));
        STORY_HELD.countDown();
        SCALE_OUT_HELD.countDown();

        // the JSON client retries through the load balancer at once, while the dead instance's lease still runs:
        // the same key with another body is refused at once, the same request waits for the turn taken over
        var reused = balanced.post(
                messages(noteSession),
                token,
                "{\"content\":\"note another task\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                SHARED_KEY);
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.body().path("error").path("code").asText()).isEqualTo("idempotency_key_reused");
        long retryStarted = System.nanoTime();
        var retried = balanced.post(messages(noteSession), token, SHARED_REQUEST, SHARED_KEY);
        Duration waited = Duration.ofNanos(System.nanoTime() - retryStarted);
        assertThat(retried.status()).as(retried.raw()).isEqualTo(200);
        assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(retried.body().path("answer").asText()).isEqualTo("Noted it.");
        assertThat(waited)
                .as("the lease (3 s), a heartbeat and the turn's rest")
                .isLessThan(Duration.ofSeconds(20));

        // the streaming client reconnects through the load balancer with the id of the last event it saw
        String turnId = seen.getFirst().data().path("turnId").asText();
        long lastSeen = seen.getLast().id();
        List<SseEvent> rest;
        try (ApiClient.SseStream resumed = balanced.openGet(
                "/v1/sessions/" + storySession + "/turns/" + turnId + "/events",
                token,
                Map.of("Last-Event-ID", Long.toString(lastSeen)))) {
            assertThat(resumed.status).isEqualTo(200);
            rest = resumed.all();
        }
        List<Long> ids = new ArrayList<>();
        seen.forEach(e -> ids.add(e.id()));
        rest.forEach(e -> ids.add(e.id()));
        assertThat(ids)
                .as("every event once, none missing")
                .isEqualTo(java.util.stream.LongStream.rangeClosed(1, ids.size())
                        .boxed()
                        .toList());
        // the dead run's chunks the client had not read yet, then the run that went on from the checkpoint (taken
        // before the story's model call: nothing of the answer was kept)
        List<SseEvent> restarts =
                rest.stream().filter(e -> e.event().equals("turn.started")).toList();
        assertThat(restarts).hasSize(1);
        assertThat(restarts.getFirst().data().path("answerSoFar").asText("absent"))
                .isEmpty();
        assertThat(rest.getLast().event()).isEqualTo("done");
        List<SseEvent> all = new ArrayList<>(seen);
        all.addAll(rest);
        JsonNode answer = awaitAnswer(balanced, token, storySession);
        assertThat(assembled(all))
                .as("the answer assembled from both connections")
                .isEqualTo(answer.path("content").asText());
        assertThat(answer.path("content").asText()).isEqualTo(STORY);
        assertThat(rest.getLast().data().path("messageId").asText())
                .isEqualTo(answer.path("id").asText());
        assertOneExchange(balanced, token, storySession, "tell me a durable story");

        assertOneExchange(balanced, token, noteSession, "note the shared task");
        assertThat(count(pg.url(), "SELECT count(*) FROM notes WHERE title = ?", "shared first"))
                .isEqualTo(1);
        assertThat(count(pg.url(), "SELECT count(*) FROM tool_calls WHERE session_id = ?", noteSession))
                .isEqualTo(1);
        assertThat(count(pg.url(), "SELECT count(*) FROM ai_usage WHERE session_id = ?", noteSession))
                .isEqualTo(2);
        // the story's cut call reported no usage; the one made again did
        assertThat(count(pg.url(), "SELECT count(*) FROM ai_usage WHERE session_id = ?", storySession))
                .isEqualTo(1);
        assertThat(count(pg.url(), "SELECT count(*) FROM running_turns", null)).isZero();
    }

    /**
     * A turn runs on {@code owner}, which dies after its tool ran; {@code taker} takes it over and dies while its model
     * call made again is held. Returns the turn's session.
     */
    private String aTurnOutlivesTwoInstances(ServerProcess owner, ServerProcess taker, String token) throws Exception {
        ApiClient api = new ApiClient(owner.url());
        String session = api.startSession(token, "durable");
        CompletableFuture<ApiClient.Response> waiting = CompletableFuture.supplyAsync(() -> api.post(
                messages(session),
                token,
                "{\"content\":\"note the relay task\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Map.of("Idempotency-Key", "durable-relay-1")));
        awaitAsked(afterTool("add_task", "relay first"), 1);
        assertThat(epoch(session)).isEqualTo(1);
        owner.kill();
        assertThat(waiting).failsWithin(Duration.ofSeconds(30));
        // the taker's sweep takes the turn over once the lease ran out, and makes the model call again
        awaitAsked(afterTool("add_task", "relay first"), 2);
        assertThat(epoch(session)).isEqualTo(2);
        taker.kill();
        return session;
    }

    /** A model call made after {@code tool} ran with a result holding {@code text}. */
    private static Predicate<RecordedRequest> afterTool(String tool, String text) {
        return r -> r.lastToolResult()
                .filter(t -> t.toolName().equals(tool) && t.content().contains(text))
                .isPresent();
    }

    /** Waits until the simulator was asked {@code times} model calls that match. */
    private static void awaitAsked(Predicate<RecordedRequest> call, int times) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> sim.requests().stream().filter(call).count() >= times);
    }

    /** Text the way a client assembles it: chunks appended, each {@code turn.started} starting from its answer so far. */
    private static String assembled(List<SseEvent> events) {
        StringBuilder text = new StringBuilder();
        for (SseEvent e : events) {
            if (e.event().equals("turn.started")) {
                text.setLength(0);
                text.append(e.data().path("answerSoFar").asText(""));
            } else if (e.event().equals("chunk")) {
                text.append(e.data().path("content").asText());
            }
        }
        return text.toString();
    }

    private static long epoch(String session) throws Exception {
        try (Connection c = DriverManager.getConnection(pg.url());
                PreparedStatement ps = c.prepareStatement("SELECT epoch FROM running_turns WHERE session_id = ?")) {
            ps.setString(1, session);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private static void awaitEpoch(String session, long epoch) {
        await().atMost(Duration.ofSeconds(45))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> epoch(session) == epoch);
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
        return ServerEnv.of(dbUrl, sim.baseUrl(), dir.resolve("baton.yaml"));
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
            if (arg != null) ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
