package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.trace.TurnTracing;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.contract.ApiExchanges;
import dev.baton.testkit.contract.HttpApiContract;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An app with an {@link OpenTelemetry} bean gets Baton's turns traced through it: a tool turn sent with a caller's
 * {@code traceparent} is one {@code invoke_agent} span over two {@code chat} spans and an {@code execute_tool} span,
 * all in the caller's trace and carrying their GenAI attributes — answered as JSON and as a stream (whose turn runs on
 * a thread of its own). The app's spans are kept by the SDK's in-memory exporter; the model is the LLM simulator over
 * real HTTP.
 */
@SpringBootTest(classes = StarterTracingIT.TracedApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StarterTracingIT {
    static final Duration EXPORTED = Duration.ofSeconds(30);
    static final LlmSimulator MODEL = LlmSimulator.start(SimulatorScript.builder()
            .whenUserSays(
                    "add milk",
                    Reply.toolCall("add_task", "{\"title\":\"milk\"}").withUsage(1000, 100))
            .whenToolResult("add_task", Reply.text("Added.").withUsage(1200, 50))
            .always(Reply.text("Hello there."))
            .build());
    static final Path DIR = tempDir("baton-starter-tracing");
    static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

    @SpringBootApplication
    static class TracedApp {
        @Bean(destroyMethod = "close")
        OpenTelemetrySdk openTelemetry() {
            return OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder()
                            .addSpanProcessor(SimpleSpanProcessor.create(SPANS))
                            .build())
                    .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                    .build();
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    TurnTracing tracing;

    @DynamicPropertySource
    static void baton(DynamicPropertyRegistry properties) {
        batonProperties(properties, DIR, MODEL);
    }

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    @Test
    void the_tracing_bean_traces_through_the_apps_open_telemetry() {
        assertThat(tracing.isOn()).isTrue();
        assertThat(tracing.capturesContent()).as("content capture is opt-in").isFalse();
    }

    @Test
    void a_tool_turn_joins_the_callers_trace_as_invoke_agent_over_chat_execute_tool_and_chat() {
        ApiExchanges api = new ApiExchanges(base(), HttpApiContract.SECRET);
        String token = api.token("traced-tools", "acme", "student");
        String session = startSession(api, token);
        String traceId = randomHex(16);
        String callerSpan = randomHex(8);

        ApiExchanges.Answer answer = api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"add milk\"}",
                "traceparent",
                "00-" + traceId + "-" + callerSpan + "-01");

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        SpanData agent = awaitTurn(session, 3);
        assertThat(agent.getTraceId()).isEqualTo(traceId);
        assertThat(agent.getParentSpanId()).isEqualTo(callerSpan);
        assertThat(agent.getName()).isEqualTo("invoke_agent Task assistant");
        assertThat(agent.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(string(agent, "gen_ai.operation.name")).isEqualTo("invoke_agent");
        assertThat(string(agent, "gen_ai.agent.id")).isEqualTo("tasks");
        assertThat(string(agent, "gen_ai.conversation.id")).isEqualTo(session);
        assertThat(string(agent, "gen_ai.provider.name")).isEqualTo("simulator");
        assertThat(string(agent, "gen_ai.request.model")).isEqualTo("default");
        assertThat(number(agent, "gen_ai.usage.input_tokens")).isEqualTo(2200L);
        assertThat(number(agent, "gen_ai.usage.output_tokens")).isEqualTo(150L);

        List<SpanData> steps = children(agent);
        assertThat(steps)
                .extracting(SpanData::getName)
                .containsExactly("chat default", "execute_tool add_task", "chat default");
        assertThat(steps).allSatisfy(step -> assertThat(step.getTraceId()).isEqualTo(traceId));
        SpanData askedForTool = steps.get(0);
        assertThat(askedForTool.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(string(askedForTool, "gen_ai.operation.name")).isEqualTo("chat");
        assertThat(number(askedForTool, "gen_ai.usage.input_tokens")).isEqualTo(1000L);
        assertThat(askedForTool.getAttributes().get(AttributeKey.stringArrayKey("gen_ai.response.finish_reasons")))
                .containsExactly("tool_calls");
        SpanData tool = steps.get(1);
        assertThat(string(tool, "gen_ai.operation.name")).isEqualTo("execute_tool");
        assertThat(string(tool, "gen_ai.tool.name")).isEqualTo("add_task");
        assertThat(string(tool, "gen_ai.tool.call.id")).isNotBlank();
        assertThat(number(steps.get(2), "gen_ai.usage.output_tokens")).isEqualTo(50L);
        // content capture is off: no prompt, answer, arguments or result on any span
        for (SpanData span : trace(traceId)) {
            assertThat(span.getAttributes().asMap().keySet())
                    .extracting(AttributeKey::getKey)
                    .doesNotContain(
                            "gen_ai.input.messages",
                            "gen_ai.output.messages",
                            "gen_ai.tool.call.arguments",
                            "gen_ai.tool.call.result");
        }
    }

    @Test
    void a_streamed_turn_joins_the_callers_trace_from_its_own_thread() {
        ApiExchanges api = new ApiExchanges(base(), HttpApiContract.SECRET);
        String token = api.token("traced-stream", "acme", "student");
        String session = startSession(api, token);
        String traceId = randomHex(16);
        String callerSpan = randomHex(8);

        ApiExchanges.Streamed answer = api.postStreaming(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"add milk\"}",
                "traceparent",
                "00-" + traceId + "-" + callerSpan + "-01");

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        assertThat(answer.events()).extracting(ApiExchanges.Event::type).contains("tool_call", "done");
        SpanData agent = awaitTurn(session, 3);
        assertThat(agent.getTraceId()).isEqualTo(traceId);
        assertThat(agent.getParentSpanId()).isEqualTo(callerSpan);
        assertThat(children(agent))
                .extracting(SpanData::getName)
                .containsExactly("chat default", "execute_tool add_task", "chat default");
    }

    @Test
    void a_turn_without_a_callers_traceparent_starts_its_own_trace() {
        ApiExchanges api = new ApiExchanges(base(), HttpApiContract.SECRET);
        String token = api.token("traced-root", "acme", "student");
        String session = startSession(api, token);

        ApiExchanges.Answer answer = api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hi\"}");

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        SpanData agent = awaitTurn(session, 1);
        assertThat(agent.getParentSpanContext().isValid()).isFalse();
        assertThat(children(agent)).extracting(SpanData::getName).containsExactly("chat default");
    }

    static void batonProperties(DynamicPropertyRegistry properties, Path dir, LlmSimulator model) {
        String databaseUrl = "jdbc:sqlite:" + dir.resolve("baton.db");
        Path yaml;
        try {
            yaml = Files.writeString(dir.resolve("baton.yaml"), HttpApiContract.batonYaml(databaseUrl));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        properties.add("baton.config", yaml::toString);
        properties.add("baton.database.url", () -> databaseUrl);
        properties.add("baton.simulator-base-url", model::baseUrl);
    }

    static String startSession(ApiExchanges api, String token) {
        ApiExchanges.Answer created = api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return created.body().path("id").asText();
    }

    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    /** The turn's invoke_agent span, once it and at least {@code children} spans under it have been exported. */
    private static SpanData awaitTurn(String session, int children) {
        await().atMost(EXPORTED)
                .until(() -> agentSpan(session)
                        .filter(agent -> children(agent).size() >= children)
                        .isPresent());
        return agentSpan(session).orElseThrow();
    }

    private static Optional<SpanData> agentSpan(String session) {
        return SPANS.getFinishedSpanItems().stream()
                .filter(s -> s.getName().startsWith("invoke_agent "))
                .filter(s -> session.equals(string(s, "gen_ai.conversation.id")))
                .findFirst();
    }

    /** The spans directly under {@code parent}, in the order they started. */
    private static List<SpanData> children(SpanData parent) {
        return SPANS.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(parent.getTraceId()))
                .filter(s -> s.getParentSpanId().equals(parent.getSpanId()))
                .sorted((a, b) -> Long.compare(a.getStartEpochNanos(), b.getStartEpochNanos()))
                .toList();
    }

    private static List<SpanData> trace(String traceId) {
        return SPANS.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(traceId))
                .toList();
    }

    private static String string(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    private static Long number(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.longKey(key));
    }

    private static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        b[0] |= 1; // never all zeroes, which W3C calls invalid
        return HexFormat.of().formatHex(b);
    }
}
