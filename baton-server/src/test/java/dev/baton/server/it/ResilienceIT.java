package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model failures over real HTTP: retries, the first-token limit, status mapping, the per-provider circuit breaker
 * (moved through its states with the server's clock, no sleeps) and fallback to a second provider.
 */
class ResilienceIT {
    static final String PRIMARY_ANSWER = "The primary model answers in several short words.";
    static final String BACKUP_ANSWER = "The backup model answers instead.";
    static final String RESILIENCE = """
            resilience:
              timeToFirstToken: 500ms
              retryDelay: 20ms
            """;

    @TempDir
    Path dir;

    final SettableClock clock = new SettableClock(Instant.now());
    LlmSimulator primary;
    LlmSimulator backup;
    TestServer t;
    String token;

    @BeforeEach
    void start() throws IOException {
        primary = LlmSimulator.start(SimulatorScript.replyingWith(PRIMARY_ANSWER));
        backup = LlmSimulator.start(SimulatorScript.replyingWith(BACKUP_ANSWER));
        Path agents = Files.createDirectories(dir.resolve("agents"));
        Files.writeString(agents.resolve("backed.yaml"), """
                id: backed
                name: Agent with a fallback model
                model: simulator:default
                fallbackModels: [compatible:backup]
                systemPrompt: You answer.
                """);
        ModelSettings models = new ModelSettings(
                "simulator:default",
                null,
                null,
                Map.of("backup", new ModelSettings.CompatibleEndpoint(backup.baseUrl(), null, "spare-1")));
        JsonNode raw = ConfigLoader.yamlMapper().readTree(RESILIENCE);
        BatonConfig config = new BatonConfig(
                0,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                models,
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of());
        t = TestServer.start(config, primary, true, clock);
        token = TestServer.token("resilient-user");
    }

    @AfterEach
    void stop() {
        t.close();
        backup.close();
    }

    private ApiClient.Response json(String session, String content) {
        String body = ApiClient.JSON.createObjectNode().put("content", content).toString();
        return t.api.post("/v1/sessions/" + session + "/messages", token, body);
    }

    private List<SseEvent> stream(String session, String content) {
        try (var s = t.api.stream(session, token, content)) {
            return s.all();
        }
    }

    private static String chunks(List<SseEvent> events) {
        return events.stream()
                .filter(e -> e.event().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .collect(Collectors.joining());
    }

    private JsonNode messages(String session) {
        return t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
    }

    @Test
    void a_503_is_retried_once_and_the_answer_streams_exactly_once() {
        String session = t.api.startSession(token, "tasks");
        primary.enqueueFault(Fault.http503());

        List<SseEvent> events = stream(session, "hello");

        assertThat(events.getLast().event()).isEqualTo("done");
        assertThat(chunks(events)).isEqualTo(PRIMARY_ANSWER);
        assertThat(primary.requests()).hasSize(2);
    }

    @Test
    void a_provider_429_answers_json_with_429_and_the_providers_retry_after() {
        String session = t.api.startSession(token, "tasks");
        primary.enqueueFault(Fault.rateLimited(7));

        ApiClient.Response r = json(session, "hello");

        assertThat(r.status()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("7");
        assertThat(r.body().path("error").path("code").asText()).isEqualTo("rate_limited");
        assertThat(primary.requests()).as("a 429 is never retried").hasSize(1);
    }

    @Test
    void a_provider_429_over_sse_is_a_final_error_event_that_says_when_to_come_back() {
        String session = t.api.startSession(token, "tasks");
        primary.enqueueFault(Fault.rateLimited(7));

        SseEvent error = stream(session, "hello").getLast();

        assertThat(error.event()).isEqualTo("error");
        assertThat(error.data().path("code").asText()).isEqualTo("rate_limited");
        assertThat(error.data().path("retryable").asBoolean()).isFalse();
        assertThat(error.data().path("retryAfter").asLong()).isEqualTo(7);
    }

    @Test
    void a_rejected_key_is_502_with_its_own_code_and_is_not_retried() {
        String session = t.api.startSession(token, "tasks");
        primary.enqueueFault(new Fault.HttpError(401, "invalid_request_error", "invalid_api_key", "bad key"));

        ApiClient.Response r = json(session, "hello");

        assertThat(r.status()).isEqualTo(502);
        assertThat(r.body().path("error").path("code").asText()).isEqualTo("model_auth");
        assertThat(primary.requests()).hasSize(1);
    }

    @Test
    void a_provider_that_sends_no_first_token_in_time_is_retried_and_answers() {
        String session = t.api.startSession(token, "tasks");
        primary.enqueueFault(Fault.hang());

        ApiClient.Response r = json(session, "hello");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo(PRIMARY_ANSWER);
        assertThat(primary.requests()).hasSize(2);
        assertThat(primary.awaitClientDisconnect(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void an_open_breaker_fails_fast_with_503_without_calling_the_provider_and_a_probe_closes_it() {
        String session = t.api.startSession(token, "tasks");
        for (int i = 0; i < 3; i++) {
            primary.enqueueFault(Fault.http500());
            assertThat(json(session, "attempt " + i).status()).isEqualTo(502);
        }
        assertThat(primary.requests()).hasSize(3);

        ApiClient.Response fast = json(session, "while open");
        assertThat(fast.status()).isEqualTo(503);
        assertThat(fast.body().path("error").path("code").asText()).isEqualTo("model_unavailable");
        assertThat(fast.headers().firstValue("Retry-After")).hasValue("60");
        assertThat(primary.requests()).as("the provider saw nothing").hasSize(3);

        clock.advance(Duration.ofSeconds(30));
        SseEvent error = stream(session, "still open").getLast();
        assertThat(error.data().path("code").asText()).isEqualTo("model_unavailable");
        assertThat(error.data().path("retryable").asBoolean()).isTrue();
        assertThat(error.data().path("retryAfter").asLong()).isEqualTo(30);
        assertThat(primary.requests()).hasSize(3);

        clock.advance(Duration.ofSeconds(31));
        ApiClient.Response probe = json(session, "after the open time");
        assertThat(probe.status()).isEqualTo(200);
        assertThat(primary.requests()).hasSize(4);
        assertThat(json(session, "closed again").status()).isEqualTo(200);
    }

    @Test
    void a_users_own_bad_requests_never_open_the_breaker() {
        String session = t.api.startSession(token, "tasks");
        for (int i = 0; i < 5; i++) {
            primary.enqueueFault(
                    new Fault.HttpError(400, "invalid_request_error", "context_length_exceeded", "context too long"));
            ApiClient.Response r = json(session, "too long " + i);
            assertThat(r.status()).isEqualTo(502);
            assertThat(r.body().path("error").path("code").asText()).isEqualTo("model_bad_request");
        }

        assertThat(json(session, "fine now").status()).isEqualTo(200);
        assertThat(primary.requests()).hasSize(6);
    }

    @Test
    void the_fallback_model_answers_when_the_primary_fails_and_done_and_usage_name_it() throws SQLException {
        String session = t.api.startSession(token, "backed");
        primary.enqueueFault(Fault.http503());
        primary.enqueueFault(Fault.http503());

        List<SseEvent> events = stream(session, "hello");

        SseEvent done = events.getLast();
        assertThat(done.event()).isEqualTo("done");
        assertThat(done.data().path("model").asText()).isEqualTo("spare-1");
        assertThat(chunks(events)).isEqualTo(BACKUP_ANSWER);
        assertThat(primary.requests()).hasSize(2);
        assertThat(backup.requests()).hasSize(1);
        assertThat(usageRows(session)).containsExactly("backup/spare-1");
    }

    @Test
    void while_the_primarys_breaker_is_open_the_fallback_answers_without_touching_the_primary() {
        String session = t.api.startSession(token, "backed");
        for (int i = 0; i < 3; i++) {
            primary.enqueueFault(Fault.http500());
            assertThat(json(session, "attempt " + i).body().path("answer").asText())
                    .isEqualTo(BACKUP_ANSWER);
        }
        assertThat(primary.requests()).hasSize(3);

        List<SseEvent> events = stream(session, "while open");

        assertThat(events.getLast().data().path("model").asText()).isEqualTo("spare-1");
        assertThat(primary.requests()).hasSize(3);
        assertThat(backup.requests()).hasSize(4);
    }

    @Test
    void a_failure_mid_stream_is_not_retried_or_fallen_back_and_resending_the_message_works() {
        String session = t.api.startSession(token, "backed");
        primary.enqueueFault(Fault.disconnectAfter(2));

        List<SseEvent> failed = stream(session, "tell me");

        SseEvent error = failed.getLast();
        assertThat(error.event()).isEqualTo("error");
        assertThat(error.data().path("code").asText()).isEqualTo("model_unavailable");
        assertThat(error.data().path("retryable").asBoolean()).isTrue();
        String partial = chunks(failed);
        assertThat(PRIMARY_ANSWER).startsWith(partial);
        assertThat(partial).isNotEmpty().isNotEqualTo(PRIMARY_ANSWER);
        assertThat(primary.requests())
                .as("no retry after text reached the client")
                .hasSize(1);
        assertThat(backup.requests())
                .as("no fallback after text reached the client")
                .isEmpty();

        List<SseEvent> resent = stream(session, "tell me");

        assertThat(resent.getLast().event()).isEqualTo("done");
        assertThat(chunks(resent)).isEqualTo(PRIMARY_ANSWER);
        JsonNode stored = messages(session);
        assertThat(stored).hasSize(4);
        assertThat(stored.get(1).path("status").asText()).isEqualTo("incomplete");
        assertThat(stored.get(1).path("content").asText()).isEqualTo(partial);
        assertThat(stored.get(3).path("status").asText()).isEqualTo("complete");
        assertThat(stored.get(3).path("content").asText()).isEqualTo(PRIMARY_ANSWER);
    }

    private List<String> usageRows(String session) throws SQLException {
        try (Connection c = DriverManager.getConnection(t.databaseUrl);
                var q = c.prepareStatement("SELECT provider, model FROM ai_usage WHERE session_id = ?")) {
            q.setString(1, session);
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) rows.add(rs.getString(1) + "/" + rs.getString(2));
            }
            return rows;
        }
    }
}
