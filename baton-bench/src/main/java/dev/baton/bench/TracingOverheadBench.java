package dev.baton.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.trace.AgentSpan;
import dev.baton.core.trace.ChatSpan;
import dev.baton.core.trace.ToolSpan;
import dev.baton.core.trace.TurnTracing;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What tracing a turn costs, off ({@code tracing=off}: the default, the no-op path) and on ({@code tracing=on}: the
 * OpenTelemetry SDK, spans batched and exported):
 *
 * <ul>
 *   <li>{@link #spansOfAToolTurn}: the spans of one tool turn alone — invoke_agent, chat, execute_tool, chat, with
 *       their attributes, contexts made current and carried to the worker threads — ended into a batch processor
 *       whose exporter drops them. Off, this is what every turn pays for tracing being possible;
 *   <li>{@link #toolTurn}: a whole tool turn over HTTP against a real server on SQLite (as
 *       {@code TurnLatencyBench.toolTurn}), with the server's tracing off, or on and exporting over OTLP/HTTP to a
 *       collector in the benchmark that reads each export and answers 200.
 * </ul>
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-DBATON_LOG_LEVEL=WARN", "-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TracingOverheadBench {

    @Param({"off", "on"})
    public String tracing;

    private OpenTelemetrySdk sdk;
    private TurnTracing turns;
    private TurnRequest request;
    private ModelBinding binding;
    private ModelRequest modelRequest;
    private ModelReply askedForTool;
    private ModelReply answered;
    private ToolCallRequest call;
    private ToolCallOutcome toolOutcome;
    private TurnOutcome outcome;

    private HttpServer collector;
    private BenchServer server;
    private String session;

    @Setup(Level.Trial)
    public void start() {
        boolean on = tracing.equals("on");
        if (on) {
            sdk = OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder()
                            .addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter())
                                    .build())
                            .build())
                    .build();
        }
        turns = on ? TurnTracing.of(sdk, false) : TurnTracing.OFF;
        fixtures();

        collector = collector();
        ObjectNode sections = JsonNodeFactory.instance.objectNode();
        if (on) {
            sections.putObject("tracing")
                    .put("enabled", true)
                    .put(
                            "endpoint",
                            "http://127.0.0.1:" + collector.getAddress().getPort());
        }
        server = BenchServer.start(BenchScripts.turns(), sections, Map.of());
        session = server.startSession();
        TurnLatencyBench.check(
                server.send(session, BenchScripts.TOOL_PROMPT), BenchScripts.TOOL_ANSWER, List.of("succeeded"));
    }

    @Setup(Level.Iteration)
    public void cutBackHistory() {
        server.resetHistory(session, 10);
    }

    @TearDown(Level.Trial)
    public void stop() {
        server.close();
        collector.stop(0);
        if (sdk != null) sdk.close();
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void spansOfAToolTurn() {
        AgentSpan agent = turns.startAgent(request);
        try (Scope ignored = agent.makeCurrent()) {
            TurnTracing current = TurnTracing.current();
            ChatSpan first = current.startChat(binding, modelRequest);
            first.wrap(NOTHING).run();
            first.succeeded(askedForTool);
            ToolSpan tool = current.startTool(call);
            tool.wrap(NOTHING).run();
            tool.end(toolOutcome);
            ChatSpan second = current.startChat(binding, modelRequest);
            second.wrap(NOTHING).run();
            second.succeeded(answered);
        }
        agent.end(outcome);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public BenchServer.TurnReply toolTurn() {
        return server.send(session, BenchScripts.TOOL_PROMPT);
    }

    private static final Runnable NOTHING = () -> {};

    private void fixtures() {
        Instant now = Instant.parse("2025-07-01T09:00:00Z");
        Principal user = Principal.of("acme", "bench-user", Set.of("tasks:write:self"));
        AgentDefinition agent = AgentDefinition.of("tasks", "You help.", "simulator:default", List.of("add_task"));
        request = new TurnRequest(
                "request-1",
                user,
                Session.start("session-1", "acme", "bench-user", "tasks", null, now),
                agent,
                "add a task",
                new Cancellation(),
                null);
        binding = new ModelBinding("simulator:default", new NamedGateway(), "default");
        modelRequest = new ModelRequest(
                "default",
                List.of(new ChatMessage.User("add a task")),
                List.of(),
                Duration.ofSeconds(30),
                new Cancellation());
        call = new ToolCallRequest("call_1", "add_task", "{\"title\":\"x\"}");
        askedForTool = new ModelReply("", List.of(call), new TokenUsage(1000, 100, 0), "default", "tool_calls");
        answered = new ModelReply("Added.", List.of(), new TokenUsage(1200, 50, 0), "default", "stop");
        toolOutcome = ToolCallOutcome.succeeded(call, JsonNodeFactory.instance.objectNode(), now, now);
        TurnEvent.Usage usage = new TurnEvent.Usage(2200, 150, 0, BigDecimal.ZERO);
        outcome = new TurnOutcome(
                null, null, List.of(), usage, "default", new TurnEvent.Done("m-1", "default", usage, 1, List.of()));
    }

    /** An OTLP/HTTP endpoint that reads each export and answers 200, as a collector does. */
    private static HttpServer collector() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            http.createContext("/v1/traces", exchange -> {
                try (exchange;
                        InputStream in = exchange.getRequestBody()) {
                    in.readAllBytes();
                    exchange.sendResponseHeaders(200, -1);
                }
            });
            http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            http.start();
            return http;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The provider name is all a chat span reads of its gateway. */
    private static final class NamedGateway implements ModelGateway {
        @Override
        public ModelReply stream(ModelRequest request, Consumer<dev.baton.core.model.ModelDelta> onDelta) {
            throw new UnsupportedOperationException("never called");
        }

        @Override
        public String provider() {
            return "simulator";
        }
    }

    private static final class DroppingExporter implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
