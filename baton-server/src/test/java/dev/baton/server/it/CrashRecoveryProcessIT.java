package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.PostgresTestDatabase;
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
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the packaged server at each phase of a turn — after the user message committed, while the model streams,
 * during a tool call, during the turn's final transaction — then a restart on the same PostgreSQL schema. Each time:
 * the user message is there exactly once, the assistant message is absent (or saved as cancelled/incomplete with a
 * prefix of what was streamed; or, once the final transaction's COMMIT was sent, complete with its usage), tool
 * calls that finished are in tool_calls, the session takes the next message, and
 * the crashed request retried with its Idempotency-Key runs once its claim's lease ran out (requestTimeout 10 s plus
 * a 2 s claimMargin here) and is replayed after that.
 *
 * <p>Each phase is reached without timing: the simulator hangs before answering ({@link Fault#hang()}) or holds after
 * two chunks ({@link Fault#holdAfter}); a tool call and the final transaction are held by a table lock the test takes
 * on PostgreSQL, and the test waits until the server's statement is seen waiting for it in pg_stat_activity.
 */
class CrashRecoveryProcessIT {
    private static final String STORY = "Once upon a time " + "there was a server that kept on talking ".repeat(30);

    @TempDir
    static Path workDir;

    static PostgresTestDatabase pg;
    static LlmSimulator sim;
    static Map<String, String> env;

    @BeforeAll
    static void setUp() throws Exception {
        pg = PostgresTestDatabase.create();
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays("tell me a story", Reply.text(STORY))
                .whenUserSays("crash in a tool", Reply.toolCall("add_task", "{\"title\":\"first\"}"))
                .whenToolResult(
                        "add_task", Reply.toolCall("create_note", "{\"title\":\"second\",\"content\":\"held\"}"))
                .whenToolResult("create_note", Reply.text("Saved both."))
                .fallback("Fine answer.")
                .build());
        Files.createDirectories(workDir.resolve("agents"));
        Files.writeString(workDir.resolve("agents").resolve("crashy.yaml"), """
                id: crashy
                name: Crash test agent
                model: default
                tools: [add_task, create_note]
                systemPrompt: You help.
                """);
        Files.writeString(workDir.resolve("baton.yaml"), """
                limits:
                  requestTimeout: 10s
                idempotency:
                  claimMargin: 2s
                agents:
                  dirs: [agents]
                """);
        env = Map.of(
                "BATON_DB_URL", pg.url(),
                "BATON_JWT_SECRET", TestServer.SECRET,
                "OPENAI_API_KEY", "sk-test",
                "OPENAI_BASE_URL", sim.baseUrl(),
                "BATON_CONFIG", workDir.resolve("baton.yaml").toString());
    }

    @AfterAll
    static void tearDown() {
        if (sim != null) sim.close();
        if (pg != null) pg.drop();
    }

    @Test
    void a_crash_after_the_user_message_committed() throws Exception {
        crashAndRecover("after-user-message", "where is my answer", phase -> {
            sim.enqueueFault(Fault.hang());
            phase.start();
            sim.awaitRequest(phase.modelCallsBefore, Duration.ofSeconds(60)); // the model was asked: the message is in
        });
    }

    @Test
    void a_crash_while_the_model_streams() throws Exception {
        crashAndRecover("while-streaming", "tell me a story", phase -> {
            sim.enqueueFault(Fault.holdAfter(2, new CountDownLatch(1)));
            phase.start();
            phase.readUntil(e -> e.event().equals("chunk"));
        });
    }

    @Test
    void a_crash_during_a_tool_call() throws Exception {
        crashAndRecover(
                "during-tool",
                "crash in a tool",
                phase -> {
                    try (Connection lock = lockTable("notes")) {
                        phase.start();
                        phase.readUntil(e -> e.event().equals("tool_call")
                                && e.data().path("name").asText().equals("create_note"));
                        awaitBlockedOn("into notes");
                        phase.kill();
                        lock.rollback();
                    }
                },
                // the first step finished before the crash: its call is in the audit trail (linked to no message);
                // the second never finished and left nothing
                session -> assertThat(toolCalls(session)).containsExactly("add_task"));
    }

    @Test
    void a_crash_during_the_final_transaction() throws Exception {
        crashAndRecover(
                "final-transaction",
                "just answer",
                phase -> {
                    try (Connection lock = lockTable("ai_usage")) {
                        phase.start();
                        phase.readUntil(e -> e.event().equals("chunk"));
                        awaitBlockedOn("into ai_usage");
                        phase.kill();
                        lock.rollback();
                    }
                },
                // the final transaction's last statement (usage) carried its COMMIT, which the server had sent before
                // it died: PostgreSQL finished the transaction once the lock was gone, so the whole turn is there
                assistants -> assertThat(assistants).singleElement().satisfies(a -> {
                    assertThat(a.path("status").asText()).isEqualTo("complete");
                    assertThat(a.path("content").asText()).isEqualTo("Fine answer.");
                }),
                session -> assertThat(usageRows(session)).isEqualTo(1));
    }

    /** One crash: a session, a request with an Idempotency-Key brought to a phase, kill -9, restart, checks. */
    private void crashAndRecover(String name, String content, PhaseAction reach) throws Exception {
        crashAndRecover(name, content, reach, session -> {});
    }

    private void crashAndRecover(String name, String content, PhaseAction reach, SessionCheck afterRestart)
            throws Exception {
        // absent, or (had the turn's own deadline fired before the kill) saved with what was streamed so far
        crashAndRecover(
                name,
                content,
                reach,
                assistants -> assertThat(assistants).allSatisfy(a -> {
                    assertThat(a.path("status").asText()).isIn("cancelled", "incomplete");
                    assertThat(STORY).startsWith(a.path("content").asText());
                }),
                afterRestart);
    }

    /**
     * @param answers checks the crashed turn's assistant messages after the restart
     * @param afterRestart more checks of the crashed turn's rows, before anything runs again
     */
    private void crashAndRecover(
            String name, String content, PhaseAction reach, AnswerCheck answers, SessionCheck afterRestart)
            throws Exception {
        String token = TestServer.token("crash-" + name);
        String session;
        String body = "{\"content\":\"" + content + "\"}";
        Map<String, String> key = Map.of("Idempotency-Key", "crash-" + name);
        try (ServerProcess server = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(server.url());
            session = api.startSession(token, "crashy");
            Phase phase = new Phase(server, api, "/v1/sessions/" + session + "/messages", token, body, key);
            try {
                reach.run(phase);
                phase.kill();
            } finally {
                phase.closeStream();
            }
        }
        try (ServerProcess server = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(server.url());
            String path = "/v1/sessions/" + session + "/messages";
            JsonNode messages = api.get(path, token).body().path("messages");
            List<JsonNode> users = new ArrayList<>();
            List<JsonNode> assistants = new ArrayList<>();
            messages.forEach(m -> (m.path("role").asText().equals("user") ? users : assistants).add(m));
            assertThat(users)
                    .as("the user message, exactly once")
                    .singleElement()
                    .satisfies(m -> assertThat(m.path("content").asText()).isEqualTo(content));
            answers.check(assistants);
            afterRestart.check(session);

            // the crashed request, retried: refused while its claim's lease runs, then it runs; then it is replayed
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> api.post(path, token, body.getBytes(StandardCharsets.UTF_8), key)
                                    .status()
                            == 200);
            var replay = api.post(path, token, body.getBytes(StandardCharsets.UTF_8), key);
            assertThat(replay.status()).isEqualTo(200);
            assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");

            // and the session takes the next message
            var next = api.post(path, token, "{\"content\":\"and now?\"}");
            assertThat(next.status()).isEqualTo(200);
            assertThat(next.body().path("answer").asText()).isEqualTo("Fine answer.");
        }
    }

    @FunctionalInterface
    private interface SessionCheck {
        void check(String sessionId) throws Exception;
    }

    @FunctionalInterface
    private interface AnswerCheck {
        void check(List<JsonNode> assistants);
    }

    @FunctionalInterface
    private interface PhaseAction {
        void run(Phase phase) throws Exception;
    }

    /** The request being crashed: its SSE stream, and the server to kill. */
    private static final class Phase {
        final ServerProcess server;
        final ApiClient api;
        final String path;
        final String token;
        final String body;
        final Map<String, String> key;
        final int modelCallsBefore = (int) sim.requestCount();
        ApiClient.SseStream stream;
        boolean killed;

        Phase(ServerProcess server, ApiClient api, String path, String token, String body, Map<String, String> key) {
            this.server = server;
            this.api = api;
            this.path = path;
            this.token = token;
            this.body = body;
            this.key = key;
        }

        void start() {
            stream = api.openStream(path, token, body, key);
            assertThat(stream.status).isEqualTo(200);
        }

        void readUntil(Predicate<SseEvent> stop) {
            List<SseEvent> seen = stream.until(stop);
            assertThat(seen)
                    .as("the stream reached the phase")
                    .isNotEmpty()
                    .last()
                    .matches(stop);
        }

        void kill() throws InterruptedException {
            if (!killed) server.kill();
            killed = true;
        }

        void closeStream() {
            if (stream != null) stream.close();
        }
    }

    /** Takes a lock on a table that lets reads through but holds every write until rolled back. */
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
                .until(() -> {
                    try (Connection c = DriverManager.getConnection(pg.url());
                            PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                                    + " WHERE wait_event_type = 'Lock' AND query ILIKE ?")) {
                        ps.setString(1, "%" + sql + "%");
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getInt(1) > 0;
                        }
                    }
                });
    }

    private static int usageRows(String sessionId) throws Exception {
        try (Connection c = DriverManager.getConnection(pg.url());
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM ai_usage WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static List<String> toolCalls(String sessionId) throws Exception {
        try (Connection c = DriverManager.getConnection(pg.url());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT tool_name FROM tool_calls WHERE session_id = ? ORDER BY started_at")) {
            ps.setString(1, sessionId);
            List<String> names = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) names.add(rs.getString(1));
            }
            return names;
        }
    }
}
