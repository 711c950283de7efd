package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Condition;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.PostgresInstance;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database goes away under a running server: a PostgreSQL server of the test's own that it stops and starts,
 * and a SQLite file that becomes unwritable. Requests answer 503 database_unavailable with Retry-After within about a
 * second, /readyz reports the database down within its deadline, a turn streaming at that moment ends within its
 * request deadline with a retryable error and its model call's usage reaches ai_usage once the database is back,
 * and everything works again without a restart.
 */
class DatabaseOutageIT {
    /** Far above the 1 s connection timeout, so a busy machine never fails these: the old wait was 30 s. */
    private static final Duration FAST = Duration.ofSeconds(5);

    private static final String STORY = "Once upon a time there was a database that went away for a while.";

    @TempDir
    Path dir;

    @Test
    void postgresql_down_answers_503_fast_and_a_streaming_turn_ends_retryably_with_its_usage_kept() throws Exception {
        SimulatorScript script = SimulatorScript.builder()
                .rule(Rule.when(new Condition.UserContains("story"), Reply.text(STORY)))
                .always(Reply.text("Fine answer."))
                .build();
        try (PostgresInstance pg = PostgresInstance.start();
                LlmSimulator sim = LlmSimulator.start(script);
                TestServer t = TestServer.start(pg.url(), TurnLimits.DEFAULTS, sim, false)) {
            String token = TestServer.token("outage");
            String session = t.api.startSession(token, "tasks");
            String path = "/v1/sessions/" + session + "/messages";

            // a turn is streaming when the database goes away; it is held after two chunks until the test says
            CountDownLatch release = new CountDownLatch(1);
            sim.enqueueFault(Fault.holdAfter(2, release));
            List<SseEvent> events;
            long turnEnded;
            long released;
            String storyBody = "{\"content\":\"tell me a story\"}";
            Map<String, String> key = Map.of("Idempotency-Key", "outage-story");
            try (var stream = t.api.openStream(path, token, storyBody, key)) {
                events = new java.util.ArrayList<>(stream.until(e -> e.event().equals("chunk")));
                pg.stop();

                // every request now fails fast with 503 and Retry-After
                for (int i = 0; i < 4; i++) {
                    long started = System.nanoTime();
                    var r = t.api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}");
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAST);
                    assertThat(r.status()).isEqualTo(503);
                    assertThat(r.body().path("error").path("code").asText()).isEqualTo("database_unavailable");
                    assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
                }
                var list = t.api.get("/v1/sessions", token);
                assertThat(list.status()).isEqualTo(503);
                long started = System.nanoTime();
                var ready = t.api.get("/readyz", null);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAST);
                assertThat(ready.status()).isEqualTo(503);
                assertThat(ready.body().path("checks").path("database").asText())
                        .isEqualTo("down");

                released = System.nanoTime();
                release.countDown();
                events.addAll(stream.all());
                turnEnded = System.nanoTime();
            }
            SseEvent last = events.getLast();
            assertThat(last.event()).isEqualTo("error");
            assertThat(last.data().path("code").asText()).isEqualTo("database_unavailable");
            assertThat(last.data().path("retryable").asBoolean()).isTrue();
            // it once ended 63 s later, past the 45 s request timeout, as a non-retryable internal error
            assertThat(Duration.ofNanos(turnEnded - released)).isLessThan(TurnLimits.DEFAULTS.requestTimeout());
            assertThat(t.server.runtime().pendingUsageRows()).isEqualTo(1);

            pg.restart();
            long back = System.nanoTime();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> t.api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}")
                                    .status()
                            == 201);
            System.out.printf(
                    "DatabaseOutageIT: PostgreSQL back, API answering 201 again after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> t.api.get("/readyz", null).status() == 200);
            // the model call that happened is billed: its usage row is written once the database takes it
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> t.server.runtime().pendingUsageRows() == 0);
            assertThat(usageRows(pg.url(), session)).isEqualTo(1);
            // the client retries its failed request with the same key: the key was freed once the database came
            // back, so it runs now rather than answering 409 for the claim's whole lease (75 s)
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() ->
                            t.api.post(path, token, storyBody.getBytes(java.nio.charset.StandardCharsets.UTF_8), key)
                                            .status()
                                    == 200);
            // the conversation goes on: the user message is there, and the next turn works
            try (var stream = t.api.stream(session, token, "hello again")) {
                assertThat(stream.all().getLast().event()).isEqualTo("done");
            }
        }
    }

    @Test
    void sqlite_that_becomes_unwritable_answers_503_and_recovers() throws Exception {
        try (LlmSimulator sim = LlmSimulator.start(SimulatorScript.replyingWith("Fine answer."));
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), TurnLimits.DEFAULTS, sim, false)) {
            String token = TestServer.token("readonly");
            String session = t.api.startSession(token, "tasks");
            Path file = dir.resolve("baton.db");
            Path wal = dir.resolve("baton.db-wal");
            Assumptions.assumeTrue(chattr("+i", file, wal), "chattr +i is not supported on this file system");
            try {
                long started = System.nanoTime();
                var created = t.api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAST);
                assertThat(created.status()).isEqualTo(503);
                assertThat(created.body().path("error").path("code").asText()).isEqualTo("database_unavailable");
                assertThat(created.headers().firstValue("Retry-After")).isPresent();

                var turn = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hi\"}");
                assertThat(turn.status()).isEqualTo(503);
                assertThat(turn.body().path("error").path("code").asText()).isEqualTo("database_unavailable");
                assertThat(sim.requestCount())
                        .as("no model call for a message that could not be saved")
                        .isZero();

                started = System.nanoTime();
                var ready = t.api.get("/readyz", null);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAST);
                assertThat(ready.status()).isEqualTo(503);
                assertThat(ready.body().path("checks").path("database").asText())
                        .isEqualTo("down");
            } finally {
                assertThat(chattr("-i", file, wal)).as("chattr -i").isTrue();
            }
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> t.api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}")
                                    .status()
                            == 201);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> t.api.get("/readyz", null).status() == 200);
        }
    }

    private static long usageRows(String url, String sessionId) throws Exception {
        try (var c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM ai_usage WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static boolean chattr(String flag, Path... files) throws Exception {
        for (Path f : files) {
            Process p = new ProcessBuilder("chattr", flag, f.toString())
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) return false;
        }
        return true;
    }
}
