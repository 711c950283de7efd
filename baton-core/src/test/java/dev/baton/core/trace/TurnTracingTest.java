package dev.baton.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.turn.Cancellation;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TurnTracingTest {
    static final AttributeKey<String> INPUT = AttributeKey.stringKey("gen_ai.input.messages");
    static final AttributeKey<String> OUTPUT = AttributeKey.stringKey("gen_ai.output.messages");
    static final AttributeKey<String> ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    static final AttributeKey<String> RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");

    final InMemorySpanExporter exported = InMemorySpanExporter.create();
    final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(exported))
                    .build())
            .build();

    final ModelBinding binding = new ModelBinding("openai:gpt-4o-mini", new Named("openai"), "gpt-4o-mini");
    final ModelRequest request = new ModelRequest(
            "gpt-4o-mini",
            List.of(new ChatMessage.System("Be brief."), new ChatMessage.User("my secret plan")),
            List.of(),
            Duration.ofSeconds(5),
            new Cancellation());
    final ToolCallRequest call = new ToolCallRequest("call_7", "add_task", "{\"title\":\"secret\"}");
    final ModelReply reply = new ModelReply("Here is the plan.", List.of(), new TokenUsage(12, 4, 0), "gpt-4o", "stop");

    @AfterEach
    void close() {
        sdk.close();
    }

    @Test
    void off_starts_shared_do_nothing_spans_and_leaves_tasks_as_they_are() {
        Runnable task = () -> {};

        assertThat(TurnTracing.current()).isSameAs(TurnTracing.OFF);
        assertThat(TurnTracing.OFF.startChat(binding, request)).isSameAs(TurnTracing.OFF.startChat(binding, request));
        assertThat(TurnTracing.OFF.startTool(call)).isSameAs(TurnTracing.OFF.startTool(call));
        assertThat(TurnTracing.OFF.startChat(binding, request).wrap(task)).isSameAs(task);
        assertThat(TurnTracing.OFF.startTool(call).wrap(task)).isSameAs(task);
        assertThat(TurnTracing.propagate(task)).isSameAs(task);
        assertThat(TurnTracing.OFF.startClientSpan("tools/call add")).isNull();
        assertThat(TraceContextHeaders.present()).isFalse();
    }

    @Test
    void spans_carry_no_contents_unless_capture_is_on() {
        trace(TurnTracing.of(sdk, false));

        assertThat(exported.getFinishedSpanItems())
                .hasSize(2)
                .allSatisfy(span -> assertThat(span.getAttributes().asMap().keySet())
                        .doesNotContain(INPUT, OUTPUT, ARGUMENTS, RESULT));
        SpanData chat = span("chat gpt-4o-mini");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.response.model")))
                .isEqualTo("gpt-4o");
        assertThat(chat.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")))
                .isEqualTo(12L);
    }

    @Test
    void with_capture_on_chat_and_tool_spans_carry_the_messages_arguments_and_result() {
        trace(TurnTracing.of(sdk, true));

        SpanData chat = span("chat gpt-4o-mini");
        assertThat(chat.getAttributes().get(INPUT))
                .isEqualTo("[{\"role\":\"system\",\"parts\":[{\"type\":\"text\",\"content\":\"Be brief.\"}]},"
                        + "{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"my secret plan\"}]}]");
        assertThat(chat.getAttributes().get(OUTPUT))
                .isEqualTo("[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Here is the plan.\"}],"
                        + "\"finish_reason\":\"stop\"}]");
        SpanData tool = span("execute_tool add_task");
        assertThat(tool.getAttributes().get(ARGUMENTS)).isEqualTo("{\"title\":\"secret\"}");
        assertThat(tool.getAttributes().get(RESULT)).isEqualTo("{\"id\":\"t-1\"}");
    }

    @Test
    void work_handed_to_another_thread_inside_a_traced_turn_joins_its_trace() throws Exception {
        TurnTracing tracing = TurnTracing.of(sdk, false);
        var parent = sdk.getTracer("test").spanBuilder("turn").startSpan();
        String[] seen = new String[1];
        try (Scope ignored = tracing.storeIn(Context.current().with(parent)).makeCurrent()) {
            Thread worker = Thread.ofVirtual().start(TurnTracing.propagate(() -> {
                StringBuilder header = new StringBuilder();
                TraceContextHeaders.inject(
                        (name, value) -> header.append(name).append('=').append(value));
                seen[0] = header.toString();
            }));
            worker.join();
        } finally {
            parent.end();
        }

        assertThat(seen[0])
                .startsWith("traceparent=00-" + parent.getSpanContext().getTraceId() + "-"
                        + parent.getSpanContext().getSpanId() + "-");
    }

    private void trace(TurnTracing tracing) {
        ChatSpan chat = tracing.startChat(binding, request);
        chat.succeeded(reply);
        ToolSpan tool = tracing.startTool(call);
        Instant now = Instant.parse("2025-07-01T09:00:00Z");
        tool.end(ToolCallOutcome.succeeded(
                call, JsonNodeFactory.instance.objectNode().put("id", "t-1"), now, now));
    }

    private SpanData span(String name) {
        return exported.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** Chat spans read only the gateway's provider name. */
    private record Named(String provider) implements ModelGateway {
        @Override
        public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
            throw new UnsupportedOperationException();
        }
    }
}
