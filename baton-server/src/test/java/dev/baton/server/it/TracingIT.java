package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.it.OtlpReceiver.ReceivedSpan;
import dev.baton.simulator.Condition;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Turns traced with OpenTelemetry and exported over real OTLP/HTTP (protobuf) to a collector in the test: the span
 * names, their nesting and their GenAI attributes for a tool turn, a failed model call and a cancelled turn; a
 * caller's {@code traceparent} continued; and the model (the simulator) receiving the chat span as its
 * {@code traceparent}.
 */
class TracingIT {
    static final String STORY = "Once upon a time " + "there was a story that went on and on ".repeat(40);
    static final Duration EXPORTED = Duration.ofSeconds(30);

    @TempDir
    static Path dir;

    static OtlpReceiver collector;
    static LlmSimulator simulator;
    static TestServer t;

    @BeforeAll
    static void start() throws IOException {
        collector = OtlpReceiver.start();
        simulator = LlmSimulator.start(SimulatorScript.builder()
                        .whenUserSays(
                                "add milk",
                                Reply.toolCall("add_task", "{\"title\":\"milk\"}")
                                        .withUsage(1000, 100))
                        .whenToolResult("add_task", Reply.text("Added.").withUsage(1200, 50))
                        // slow enough to cancel mid-stream: one word per chunk, 40 words a second
                        .rule(Rule.when(new Condition.UserContains("story"), Reply.text(STORY))
                                .withPacing(new Pacing(Duration.ZERO, 40, 1)))
                        .always(Reply.text("Hello there.").withUsage(10, 5))
                        .build())
                .keepAllRequests();
        JsonNode raw = ConfigLoader.yamlMapper().readTree("""
                tracing:
                  enabled: true
                  endpoint: %s
                  serviceName: baton-traced
                """.formatted(collector.endpoint()));
        BatonConfig config = new BatonConfig(
                0,
                "jdbc:sqlite:" + dir.resolve("traced.db"),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of());
        t = TestServer.start(config, simulator, false, java.time.Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
        if (simulator != null) simulator.close();
        if (collector != null) collector.close();
    }

    @Test
    void a_tool_turn_is_one_trace_invoke_agent_over_chat_execute_tool_and_chat() {
        String token = TestServer.token("traced-tools");
        String session = t.api.startSession(token, "tasks");

        ApiClient.Response answer = RateLimitIT.send(t, session, token, "add milk");

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        ReceivedSpan agent = awaitTurn(session, 3);
        assertThat(agent.name()).isEqualTo("invoke_agent Task assistant");
        assertThat(agent.kind()).isEqualTo(Span.SpanKind.SPAN_KIND_INTERNAL);
        assertThat(agent.attributes())
                .containsEntry("gen_ai.operation.name", "invoke_agent")
                .containsEntry("gen_ai.agent.id", "tasks")
                .containsEntry("gen_ai.agent.name", "Task assistant")
                .containsEntry("gen_ai.conversation.id", session)
                .containsEntry("gen_ai.provider.name", "simulator")
                .containsEntry("gen_ai.request.model", "default")
                .containsEntry("gen_ai.usage.input_tokens", 2200L)
                .containsEntry("gen_ai.usage.output_tokens", 150L)
                .containsEntry("baton.request.id", RateLimitIT.header(answer, "X-Request-ID"))
                .doesNotContainKey("error.type");
        assertThat(agent.status()).isNotEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(agent.resource()).containsEntry("service.name", "baton-traced");

        List<ReceivedSpan> steps = collector.children(agent);
        assertThat(steps)
                .extracting(ReceivedSpan::name)
                .containsExactly("chat default", "execute_tool add_task", "chat default");
        ReceivedSpan askedForTool = steps.get(0);
        ReceivedSpan tool = steps.get(1);
        ReceivedSpan answered = steps.get(2);
        assertThat(askedForTool.kind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
        assertThat(askedForTool.attributes())
                .containsEntry("gen_ai.operation.name", "chat")
                .containsEntry("gen_ai.provider.name", "simulator")
                .containsEntry("gen_ai.request.model", "default")
                .containsEntry("gen_ai.usage.input_tokens", 1000L)
                .containsEntry("gen_ai.usage.output_tokens", 100L)
                .containsEntry("gen_ai.response.finish_reasons", List.of("tool_calls"))
                .containsKey("gen_ai.response.model");
        assertThat(answered.attributes())
                .containsEntry("gen_ai.usage.input_tokens", 1200L)
                .containsEntry("gen_ai.usage.output_tokens", 50L)
                .containsEntry("gen_ai.response.finish_reasons", List.of("stop"));

        // the turn's second model call, told from other tests' by its trace (the simulator is shared)
        RecordedRequest toolResult = simulator.requests().stream()
                .filter(r -> r.header("traceparent").orElse("").startsWith("00-" + agent.traceId() + "-"))
                .skip(1)
                .findFirst()
                .orElseThrow();
        String callId = toolResult.lastToolResult().orElseThrow().toolCallId();
        assertThat(tool.attributes())
                .containsEntry("gen_ai.operation.name", "execute_tool")
                .containsEntry("gen_ai.tool.name", "add_task")
                .containsEntry("gen_ai.tool.call.id", callId)
                .doesNotContainKey("error.type");

        // content capture is off: no prompt, answer, arguments or result on any span
        for (ReceivedSpan s : collector.trace(agent.traceId())) {
            assertThat(s.attributes().keySet())
                    .doesNotContain(
                            "gen_ai.input.messages",
                            "gen_ai.output.messages",
                            "gen_ai.tool.call.arguments",
                            "gen_ai.tool.call.result");
        }
        assertThat(collector.contentTypes()).allMatch("application/x-protobuf"::equals);
    }

    @Test
    void the_model_receives_its_chat_span_as_the_traceparent() {
        String token = TestServer.token("traced-peer");
        String session = t.api.startSession(token, "tasks");

        assertThat(RateLimitIT.send(t, session, token, "add milk").status()).isEqualTo(200);

        ReceivedSpan agent = awaitTurn(session, 3);
        List<ReceivedSpan> chats = collector.children(agent).stream()
                .filter(s -> s.name().startsWith("chat "))
                .toList();
        assertThat(chats).hasSize(2);
        // this turn's requests, in arrival order, told from other tests' by their trace (the simulator is shared)
        List<RecordedRequest> received = simulator.requests().stream()
                .filter(r -> r.header("traceparent").orElse("").startsWith("00-" + agent.traceId() + "-"))
                .toList();
        assertThat(received).as("the turn's two model calls carry its trace").hasSize(2);
        for (int i = 0; i < 2; i++) {
            // version, the trace, the chat span as parent, then the flags
            String expected = "00-" + agent.traceId() + "-" + chats.get(i).spanId() + "-";
            assertThat(received.get(i).header("traceparent").orElse(""))
                    .as("request %d to the model", i)
                    .startsWith(expected);
        }
    }

    @Test
    void a_callers_traceparent_is_continued_by_the_turn() {
        String token = TestServer.token("traced-caller");
        String session = t.api.startSession(token, "tasks");
        String traceId = randomHex(16);
        String callerSpan = randomHex(8);

        ApiClient.Response answer = t.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"hello\"}".getBytes(StandardCharsets.UTF_8),
                Map.of("Content-Type", "application/json", "traceparent", "00-" + traceId + "-" + callerSpan + "-01"));

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        ReceivedSpan agent = awaitTurn(session, 1);
        assertThat(agent.traceId()).isEqualTo(traceId);
        assertThat(agent.parentSpanId()).isEqualTo(callerSpan);
        assertThat(collector.children(agent)).extracting(ReceivedSpan::name).containsExactly("chat default");
    }

    @Test
    void a_turn_without_a_callers_traceparent_starts_its_own_trace() {
        String token = TestServer.token("traced-root");
        String session = t.api.startSession(token, "tasks");

        assertThat(RateLimitIT.send(t, session, token, "hello").status()).isEqualTo(200);

        ReceivedSpan agent = awaitTurn(session, 1);
        assertThat(agent.parentSpanId()).isEmpty();
    }

    @Test
    void a_failed_model_call_sets_error_type_and_error_status_on_the_chat_span_and_the_turn() {
        String token = TestServer.token("traced-failure");
        String session = t.api.startSession(token, "tasks");
        simulator.enqueueFault(Fault.http500());

        ApiClient.Response answer = RateLimitIT.send(t, session, token, "hello?");

        assertThat(answer.status()).as(answer.raw()).isEqualTo(502);
        String code = answer.body().path("error").path("code").asText();
        assertThat(code).isNotBlank();
        ReceivedSpan agent = awaitTurn(session, 1);
        assertThat(agent.status()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(agent.attributes()).containsEntry("error.type", code).containsEntry("baton.turn.status", code);
        ReceivedSpan chat = collector.children(agent).getFirst();
        assertThat(chat.name()).isEqualTo("chat default");
        assertThat(chat.status()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(chat.attributes())
                .containsEntry("error.type", "unavailable")
                .doesNotContainKey("gen_ai.usage.input_tokens");
    }

    @Test
    void a_cancelled_turn_ends_its_chat_span_and_its_turn_as_cancelled() {
        String token = TestServer.token("traced-cancel");
        String session = t.api.startSession(token, "tasks");
        try (var stream = t.api.stream(session, token, "tell me a story")) {
            stream.until(e -> e.event().equals("chunk"));
            var cancel = t.api.post("/v1/sessions/" + session + "/cancel", token, "{}");
            assertThat(cancel.body().path("cancelled").asBoolean()).isTrue();
            assertThat(stream.all().getLast().data().path("code").asText()).isEqualTo("cancelled");
        }

        ReceivedSpan agent = awaitTurn(session, 1);
        assertThat(agent.status()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(agent.attributes()).containsEntry("error.type", "cancelled");
        ReceivedSpan chat = collector.children(agent).getFirst();
        assertThat(chat.name()).isEqualTo("chat default");
        assertThat(chat.status()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(chat.attributes()).containsEntry("error.type", "cancelled");
    }

    @Test
    void the_turns_json_log_line_carries_its_trace_and_span_ids() throws IOException {
        // the encoder of the shipped logback.xml, fed the lines of the turn logger
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        @SuppressWarnings("unchecked")
        Encoder<ILoggingEvent> json = ((OutputStreamAppender<ILoggingEvent>)
                        logging.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("JSON"))
                .getEncoder();
        List<String> lines = new CopyOnWriteArrayList<>();
        AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                lines.add(new String(json.encode(event), StandardCharsets.UTF_8));
            }
        };
        capture.setContext(logging);
        capture.start();
        ch.qos.logback.classic.Logger turns = logging.getLogger("baton.turn");
        turns.addAppender(capture);
        String token = TestServer.token("traced-logs");
        String session = t.api.startSession(token, "tasks");
        try {
            assertThat(RateLimitIT.send(t, session, token, "hello").status()).isEqualTo(200);
        } finally {
            turns.detachAppender(capture);
        }

        ReceivedSpan agent = awaitTurn(session, 1);
        JsonNode finished = null;
        for (String line : lines) {
            JsonNode parsed = ApiClient.JSON.readTree(line);
            if (session.equals(parsed.path("sessionId").asText())) finished = parsed;
        }
        assertThat(finished).as("the turn's log line in %s", lines).isNotNull();
        assertThat(finished.path("message").asText()).startsWith("turn finished");
        assertThat(finished.path("trace_id").asText()).isEqualTo(agent.traceId());
        assertThat(finished.path("span_id").asText()).isEqualTo(agent.spanId());
    }

    /** The turn's invoke_agent span, once it and at least {@code children} spans under it have been exported. */
    private static ReceivedSpan awaitTurn(String session, int children) {
        await().atMost(EXPORTED)
                .until(() -> agentSpan(session)
                        .filter(agent -> collector.children(agent).size() >= children)
                        .isPresent());
        return agentSpan(session).orElseThrow();
    }

    private static Optional<ReceivedSpan> agentSpan(String session) {
        return collector.spans().stream()
                .filter(s -> s.name().startsWith("invoke_agent "))
                .filter(s -> session.equals(s.attribute("gen_ai.conversation.id")))
                .findFirst();
    }

    private static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        b[0] |= 1; // never all zeroes, which W3C calls invalid
        return HexFormat.of().formatHex(b);
    }
}
