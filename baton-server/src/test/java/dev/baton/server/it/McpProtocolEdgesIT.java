package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The edges of {@code /mcp}: params of the wrong shape get a JSON-RPC "invalid params" error (-32602) with a clean
 * sentence — no HTTP 500, no stack trace in the log, no SDK class names, and a malformed {@code initialize} starts no
 * session; a browser {@code Origin} that is not allowed is refused with 403 (no Origin, a loopback page and a configured
 * origin are fine); every answer says {@code X-Content-Type-Options: nosniff}.
 */
class McpProtocolEdgesIT {
    static final String ALLOWED = "https://app.example.com";

    @TempDir
    static Path dir;

    static TestServer t;
    static final HttpClient http = HttpClient.newHttpClient();
    final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeAll
    static void start() throws Exception {
        BatonConfig config = new BatonConfig(
                0,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                ConfigLoader.yamlMapper().readTree("server: { mcpAllowedOrigins: [\"" + ALLOWED + "\"] }"),
                Map.of());
        t = TestServer.start(config, LlmSimulator.start(TaskAgentScript.create()), true, Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    @BeforeEach
    void listen() {
        logged.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(logged);
    }

    @AfterEach
    void stopListening() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logged);
    }

    @Test
    void tools_call_with_params_of_the_wrong_shape_is_an_invalid_params_error_without_a_stack_trace() throws Exception {
        String token = TestServer.token("edge-alice");
        String session = initializedSession(token);
        List<String> malformed = List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":\"add_task\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"add_task\",\"arguments\":\"title=milk\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"add_task\",\"arguments\":[\"milk\"]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":[1,2]}");

        for (String body : malformed) {
            HttpResponse<String> answer = post(token, session, body, null);

            assertInvalidParams(answer, 7);
        }
        assertThat(t.api.get("/v1/tasks?status=all", token).body().path("tasks"))
                .isEmpty();
        assertNoStackTraceLogged();
    }

    @Test
    void a_malformed_initialize_is_an_invalid_params_error_and_starts_no_session() throws Exception {
        String token = TestServer.token("edge-bob");
        List<String> malformed = List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":\"2025-06-18\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":7,"
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":\"curl\"}}");

        for (String body : malformed) {
            HttpResponse<String> answer = post(token, null, body, null);

            assertInvalidParams(answer, 1);
            assertThat(answer.headers().firstValue("Mcp-Session-Id")).isEmpty();
        }
        assertThat(t.api.get("/v1/sessions", token).body().path("sessions")).isEmpty();
        assertNoStackTraceLogged();
        // and a well-formed one still works
        assertThat(initializedSession(token)).isNotBlank();
        assertThat(t.api.get("/v1/sessions", token).body().path("sessions")).hasSize(1);
    }

    @Test
    void a_browser_origin_that_is_not_allowed_is_refused_before_anything_happens() throws Exception {
        String token = TestServer.token("edge-carol");

        for (String origin : List.of("http://evil.example", "https://app.example.com.evil.example", "null")) {
            HttpResponse<String> refused = post(token, null, initialize(), origin);

            assertThat(refused.statusCode()).as(origin).isEqualTo(403);
            assertThat(ApiClient.JSON.readTree(refused.body()).at("/error/code").asText())
                    .isEqualTo("origin_not_allowed");
            assertThat(refused.headers().firstValue("Mcp-Session-Id")).isEmpty();
        }
        assertThat(t.api.get("/v1/sessions", token).body().path("sessions")).isEmpty();
        assertThat(send(base(token, null)
                                .header("Origin", "http://evil.example")
                                .DELETE()
                                .build())
                        .statusCode())
                .isEqualTo(403);
    }

    @Test
    void no_origin_a_loopback_page_and_a_configured_origin_may_use_it() throws Exception {
        String token = TestServer.token("edge-dave");
        for (String origin : new String[] {null, "http://localhost:6274", "http://127.0.0.1:8080", ALLOWED}) {
            HttpResponse<String> answer = post(token, null, initialize(), origin);

            assertThat(answer.statusCode()).as(origin + ": " + answer.body()).isEqualTo(200);
            assertThat(answer.headers().firstValue("Mcp-Session-Id")).isPresent();
        }
    }

    @Test
    void every_answer_says_nosniff_successes_and_refusals_alike() throws Exception {
        String token = TestServer.token("edge-erin");
        assertThat(t.api.get("/v1/agents", token).headers().firstValue("X-Content-Type-Options"))
                .contains("nosniff");
        assertThat(t.api.get("/v1/agents", null).status()).isEqualTo(401);
        assertThat(t.api.get("/v1/agents", null).headers().firstValue("X-Content-Type-Options"))
                .contains("nosniff");
        assertThat(t.api.get("/v1/sessions/no-such-session", token).headers().firstValue("X-Content-Type-Options"))
                .contains("nosniff");
        assertThat(post(token, null, initialize(), null).headers().firstValue("X-Content-Type-Options"))
                .contains("nosniff");
    }

    private static void assertInvalidParams(HttpResponse<String> answer, int id) throws Exception {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode body = ApiClient.JSON.readTree(answer.body());
        assertThat(body.path("id").asInt()).as(answer.body()).isEqualTo(id);
        assertThat(body.at("/error/code").asInt()).as(answer.body()).isEqualTo(-32602);
        String message = body.at("/error/message").asText();
        assertThat(message)
                .as(answer.body())
                .isNotBlank()
                .doesNotContain("Exception")
                .doesNotContain("io.modelcontextprotocol")
                .doesNotContain("jackson")
                .doesNotContain("null");
        assertThat(body.has("result")).isFalse();
    }

    private void assertNoStackTraceLogged() {
        assertThat(logged.list.stream()
                        .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN) || e.getThrowableProxy() != null)
                        .map(ILoggingEvent::getFormattedMessage)
                        .toList())
                .isEmpty();
    }

    private static String initializedSession(String token) throws Exception {
        HttpResponse<String> initialized = post(token, null, initialize(), null);
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
        return initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static String initialize() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"curl\",\"version\":\"1\"}}}";
    }

    private static HttpRequest.Builder base(String token, String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.server.port() + "/mcp"))
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token);
        if (session != null) b.header("Mcp-Session-Id", session);
        return b;
    }

    private static HttpResponse<String> post(String token, String session, String body, String origin)
            throws Exception {
        HttpRequest.Builder b = base(token, session)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (origin != null) b.header("Origin", origin);
        return send(b.build());
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
