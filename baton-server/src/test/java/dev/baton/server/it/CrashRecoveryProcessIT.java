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
 * during a tool call, during the turn's final transaction — then a restart on the same PostgreSQL schema. The four
 * phases are reached at once, by four requests in four sessions, and share one kill and one restart. For each: the
 * user message is there exactly once, the assistant message is absent (or saved as cancelled/incomplete with a
 * prefix of what was streamed; or, once the final transaction's COMMIT was sent, complete with its usage), tool calls
 * that finished are in tool_calls, the session takes the next message, and the crashed request retried with its
 * Idempotency-Key runs once its claim's lease ran out (requestTimeout 30 s plus a 2 s claimMargin here) and is
 * replayed after that.
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
                  requestTimeout: 30s
                idempotency:
                  claimMargin: 2s
                agents:
                  dirs: [agents]
                """);
        env = ServerEnv.of(pg.url(), sim.baseUrl(), workDir.resolve("baton.yaml"));
    }

    @AfterAll
    static void tearDown() {
        if (sim != null) sim.close();
        if (pg != null) pg.drop();
    }

    /**
     * One instance brings four turns, each in a session of its own, to their four phases at once; one kill -9, one
     * restart; then each session is checked, and each crashed request retried with its key.
     */
    @Test
    void a_crash_leaves_each_phase_of_a_turn_consistent() throws Exception {
        String token = TestServer.token("crash-phases");
        List<Crashed> crashed = new ArrayList<>();
        List<Connection> locks = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(server.url());
            try {
                // after the user message committed: the model was asked (the message is in), and hangs
                sim.enqueueFault(Fault.hang());
                crashed.add(start(api, token, "after-user-message", "where is my answer", AnswerCheck.PARTIAL, NONE));
                awaitAsked("where is my answer");
                // while the model streams: two chunks sent, the rest held
                sim.enqueueFault(Fault.holdAfter(2, new CountDownLatch(1)));
                crashed.add(start(api, token, "while-streaming", "tell me a story", AnswerCheck.PARTIAL, NONE)
                        .readUntil(e -> e.event().equals("chunk")));
                locks.add(lockTable("notes"));
                // during a tool call: the first step finished before the crash, its call is in the audit trail
                // (linked to no message); the second never finished and left nothing
                crashed.add(start(
                                api,
                                token,
                                "during-tool",
                                "crash in a tool",
                                AnswerCheck.PARTIAL,
                                session -> assertThat(toolCalls(session)).containsExactly("add_task"))
                        .readUntil(e -> e.event().equals("tool_call")
                                && e.data().path("name").asText().equals("create_note")));
                awaitBlockedOn("into notes");
                locks.add(lockTable("ai_usage"));
                // during the final transaction: its last statement (usage) carried its COMMIT, which the server had
                // sent before it died: PostgreSQL finishes the transaction once the lock is gone, so the whole turn
                // is there
                crashed.add(start(
                                api,
                                token,
                                "final-transaction",
                                "just answer",
                                assistants -> assertThat(assistants)
                                        .singleElement()
                                        .satisfies(a -> {
                                            assertThat(a.path("status").asText())
                                                    .isEqualTo("complete");
                                            assertThat(a.path("content").asText())
                                                    .isEqualTo("Fine answer.");
                                        }),
                                session -> assertThat(usageRows(session)).isEqualTo(1))
                        .readUntil(e -> e.event().equals("chunk")));
                awaitBlockedOn("into ai_usage");
                server.kill();
            } finally {
                crashed.forEach(Crashed::closeStream);
                for (Connection lock : locks) {
                    lock.rollback();
                    lock.close();
                }
            }
        }
        try (ServerProcess server = ServerProcess.start(workDir, env)) {
            ApiClient api = new ApiClient(server.url());
            for (Crashed c : crashed) c.checkAfterRestart(api, token);
            for (Crashed c : crashed) c.retried(api, token);
        }
    }

    private static final SessionCheck NONE = session -> {};

    /** Starts the phase's request (an Idempotency-Key, SSE) in a session of its own. */
    private static Crashed start(
            ApiClient api, String token, String name, String content, AnswerCheck answers, SessionCheck rows) {
        String session = api.startSession(token, "crashy");
        Crashed c = new Crashed(name, session, content, answers, rows);
        c.stream = api.openStream(c.path(), token, c.body(), c.key());
        assertThat(c.stream.status).isEqualTo(200);
        return c;
    }

    private static void awaitAsked(String userMessage) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> sim.requests().stream()
                        .anyMatch(r -> r.lastToolResult().isEmpty() && userMessage.equals(r.lastUserMessage())));
    }

    @FunctionalInterface
    private interface SessionCheck {
        void check(String sessionId) throws Exception;
    }

    @FunctionalInterface
    private interface AnswerCheck {
        /** Absent, or (had the turn's own deadline fired before the kill) saved with what was streamed so far. */
        AnswerCheck PARTIAL = assistants -> assertThat(assistants).allSatisfy(a -> {
            assertThat(a.path("status").asText()).isIn("cancelled", "incomplete");
            assertThat(STORY).startsWith(a.path("content").asText());
        });

        void check(List<JsonNode> assistants);
    }

    /** A request crashed at one phase: its session, its SSE stream, and what its rows must be after the restart. */
    private static final class Crashed {
        final String name;
        final String session;
        final String content;
        final AnswerCheck answers;
        final SessionCheck rows;
        ApiClient.SseStream stream;

        Crashed(String name, String session, String content, AnswerCheck answers, SessionCheck rows) {
            this.name = name;
            this.session = session;
            this.content = content;
            this.answers = answers;
            this.rows = rows;
        }

        String path() {
            return "/v1/sessions/" + session + "/messages";
        }

        String body() {
            return "{\"content\":\"" + content + "\"}";
        }

        Map<String, String> key() {
            return Map.of("Idempotency-Key", "crash-" + name);
        }

        Crashed readUntil(Predicate<SseEvent> stop) {
            List<SseEvent> seen = stream.until(stop);
            assertThat(seen)
                    .as(name + ": the stream reached the phase")
                    .isNotEmpty()
                    .last()
                    .matches(stop);
            return this;
        }

        /** The user message exactly once, the answer as the phase left it, the phase's own rows. */
        void checkAfterRestart(ApiClient api, String token) throws Exception {
            JsonNode messages = api.get(path(), token).body().path("messages");
            List<JsonNode> users = new ArrayList<>();
            List<JsonNode> assistants = new ArrayList<>();
            messages.forEach(m -> (m.path("role").asText().equals("user") ? users : assistants).add(m));
            assertThat(users)
                    .as(name + ": the user message, exactly once")
                    .singleElement()
                    .satisfies(m -> assertThat(m.path("content").asText()).isEqualTo(content));
            answers.check(assistants);
            rows.check(session);
        }

        /**
         * The crashed request, retried: refused while its claim's lease runs, then it runs; then it is replayed. And
         * the session takes the next message.
         */
        void retried(ApiClient api, String token) {
            byte[] again = body().getBytes(StandardCharsets.UTF_8);
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> api.post(path(), token, again, key()).status() == 200);
            var replay = api.post(path(), token, again, key());
            assertThat(replay.status()).isEqualTo(200);
            assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
            var next = api.post(path(), token, "{\"content\":\"and now?\"}");
            assertThat(next.status()).isEqualTo(200);
            assertThat(next.body().path("answer").asText()).isEqualTo("Fine answer.");
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
