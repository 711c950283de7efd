package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.Fault;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The AI path's log events as the shipped logback.xml writes them (JSON, one field per value): a tool turn logs
 * {@code turn_started}, {@code model_call_finished} (the provider's model beside the configured reference),
 * {@code tool_call_finished}, {@code turn_finished} and {@code request_finished}, each carrying the request id the
 * response names; a failing model call logs {@code model_call_failed} and {@code turn_failed}. No message content.
 */
class AiPathLogIT {
    @TempDir
    static Path dir;

    static TestServer t;

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<ch.qos.logback.classic.Logger> watched = new ArrayList<>();
    private AppenderBase<ILoggingEvent> capture;

    @BeforeAll
    static void start() {
        t = LearningFixture.start(dir, BundledScript.create());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @BeforeEach
    void captureTheJsonLines() {
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        @SuppressWarnings("unchecked")
        Encoder<ILoggingEvent> json = ((OutputStreamAppender<ILoggingEvent>)
                        logging.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("JSON"))
                .getEncoder();
        capture = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                lines.add(new String(json.encode(event), StandardCharsets.UTF_8));
            }
        };
        capture.setContext(logging);
        capture.start();
        for (String name : List.of("baton.turn", "baton.model", "baton.access")) {
            ch.qos.logback.classic.Logger logger = logging.getLogger(name);
            logger.addAppender(capture);
            watched.add(logger);
        }
    }

    @AfterEach
    void detach() {
        watched.forEach(logger -> logger.detachAppender(capture));
    }

    @Test
    void a_tool_turn_logs_each_step_as_fields_under_the_request_id() throws IOException {
        String token = TestServer.token("logan");
        String session = t.api.startSession(token, "tasks");
        var answer = RateLimitIT.send(t, session, token, "add a task to buy eggs tomorrow");
        assertThat(answer.status()).isEqualTo(200);
        String requestId = RateLimitIT.header(answer, "X-Request-ID");

        List<JsonNode> events = eventsOf(requestId);
        assertThat(events)
                .extracting(e -> e.path("event").asText())
                .containsSubsequence(
                        "turn_started",
                        "model_call_finished",
                        "tool_call_finished",
                        "model_call_finished",
                        "turn_finished",
                        "request_finished");

        JsonNode started = first(events, "turn_started");
        assertThat(started.path("agentId").asText()).isEqualTo("tasks");
        assertThat(started.path("inputLength").asInt()).isEqualTo("add a task to buy eggs tomorrow".length());
        assertThat(started.path("userId").asText()).isEqualTo("logan");
        assertThat(started.path("sessionId").asText()).isEqualTo(session);

        JsonNode model = first(events, "model_call_finished");
        assertThat(model.path("provider").asText()).isEqualTo("simulator");
        assertThat(model.path("modelRef").asText()).isNotBlank();
        assertThat(model.path("model").asText()).isNotBlank();
        assertThat(model.path("inputTokens").asLong()).isPositive();
        assertThat(model.path("toolCalls").asInt()).isEqualTo(1);
        assertThat(model.has("durationMs")).isTrue();

        JsonNode tool = first(events, "tool_call_finished");
        assertThat(tool.path("tool").asText()).isEqualTo("add_task");
        assertThat(tool.path("success").asBoolean()).isTrue();
        assertThat(tool.has("durationMs")).isTrue();

        JsonNode finished = first(events, "turn_finished");
        assertThat(finished.path("status").asText()).isEqualTo("ok");
        assertThat(finished.path("toolsCalled").get(0).asText()).isEqualTo("add_task");
        assertThat(finished.path("inputTokens").asLong()).isPositive();
        assertThat(finished.path("latencyMs").asLong()).isNotNegative();

        JsonNode request = first(events, "request_finished");
        assertThat(request.path("method").asText()).isEqualTo("POST");
        assertThat(request.path("status").asInt()).isEqualTo(200);

        // sizes and names only: neither the message nor the task's title is in any line
        assertThat(String.join("\n", lines)).doesNotContain("buy eggs");
    }

    @Test
    void a_failed_model_call_logs_its_kind_and_the_turns_error() throws IOException {
        String token = TestServer.token("fay");
        String session = t.api.startSession(token, "tasks");
        t.simulator.enqueueFault(Fault.http500());
        var answer = RateLimitIT.send(t, session, token, "list my tasks");
        String requestId = RateLimitIT.header(answer, "X-Request-ID");

        List<JsonNode> events = eventsOf(requestId);
        JsonNode failed = first(events, "model_call_failed");
        assertThat(failed.path("level").asText()).isEqualTo("WARN");
        assertThat(failed.path("errorType").asText()).isEqualTo("UNAVAILABLE");
        JsonNode turn = first(events, "turn_failed");
        assertThat(turn.path("errorType").asText()).isEqualTo("model_unavailable");
        assertThat(turn.path("recoverable").asBoolean()).isTrue();
        assertThat(first(events, "turn_finished").path("success").asBoolean()).isFalse();
    }

    private List<JsonNode> eventsOf(String requestId) throws IOException {
        List<JsonNode> events = new ArrayList<>();
        for (String line : lines) {
            JsonNode parsed = ApiClient.JSON.readTree(line);
            if (requestId.equals(parsed.path("requestId").asText()) && parsed.has("event")) events.add(parsed);
        }
        assertThat(events).as("the request's log events in %s", lines).isNotEmpty();
        return events;
    }

    private static JsonNode first(List<JsonNode> events, String name) {
        return events.stream()
                .filter(e -> e.path("event").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in " + events));
    }
}
