package dev.baton.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.Cancellation;
import dev.baton.mcp.client.McpClients;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.providers.resilience.BreakerSettings;
import dev.baton.providers.resilience.BreakerToolSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One tool call the way a turn makes it — the core's executor (schema validation, permissions, its own virtual thread
 * and timeout) and the source's circuit breaker — to an {@code echo} tool: in process, or server-everything's
 * {@code echo} over MCP (stdio, streamable HTTP). The difference is what MCP adds to a call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-DBATON_LOG_LEVEL=WARN", "-Xms512m", "-Xmx512m"})
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 8, time = 1)
public class McpToolCallBench {

    @Param({"in-process", "stdio", "http"})
    public String peer;

    private McpPeers peers;
    private McpClients clients;
    private ToolExecutor executor;
    private AgentDefinition agent;
    private String tool;
    private final Principal caller = new Principal(
            "bench-user", "bench", null, null, Set.of(McpPeers.ROLE), Set.of("mcp:everything"), java.util.List.of());

    @Setup(Level.Trial)
    public void start() {
        ToolSource source;
        if (peer.equals("in-process")) {
            source = new EchoSource();
            tool = "echo";
        } else {
            peers = new McpPeers();
            McpSettings settings = McpSettings.parse(peers.mcpSection(peer), Map.of());
            clients = McpClients.start(settings, new InMemoryToolPins(), Clock.systemUTC());
            if (!clients.awaitFirstAttempts(Duration.ofSeconds(30))
                    || !clients.status().getFirst().up())
                throw new IllegalStateException("server-everything is not up: " + clients.status());
            source = clients.toolSources().getFirst();
            tool = "everything__echo";
        }
        BreakerToolSource guarded = new BreakerToolSource(source, BreakerSettings.TOOL_DEFAULTS, Clock.systemUTC());
        executor = new ToolExecutor(new ToolCatalog(List.of(guarded)), Clock.systemUTC());
        agent = AgentDefinition.of("bench", "", "simulator:default", List.of(tool));
        ToolCallOutcome first = call();
        if (!first.ok()) throw new IllegalStateException("the echo call failed: " + first.error());
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (clients != null) clients.close();
        if (peers != null) peers.close();
    }

    @Benchmark
    public ToolCallOutcome call() {
        var request = new ToolCallRequest("c", tool, "{\"message\":\"benchmark\"}");
        var scope = new ToolCallScope(agent, caller, "bench-session", Duration.ofSeconds(10), new Cancellation());
        return executor.execute(List.of(request), scope, new CallCache()).getFirst();
    }

    /** The ceiling of calls alone: 16 callers at once through one server (or the in-process tool). */
    @Benchmark
    @Threads(16)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public ToolCallOutcome callsBy16Threads() {
        return call();
    }

    /** The in-process baseline: the same tool as server-everything's echo, as a plain Java tool. */
    static final class EchoSource implements ToolSource {
        private static final JsonNode SCHEMA = JsonNodeFactory.instance
                .objectNode()
                .put("type", "object")
                .put("additionalProperties", false)
                .set(
                        "properties",
                        JsonNodeFactory.instance
                                .objectNode()
                                .set(
                                        "message",
                                        JsonNodeFactory.instance.objectNode().put("type", "string")));

        private final Tool echo = new Tool() {
            private final ToolDefinition definition =
                    new ToolDefinition("echo", "Echoes back the input.", SCHEMA, Set.of("mcp:everything"), null);

            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                return JsonNodeFactory.instance
                        .objectNode()
                        .put("text", "Echo: " + arguments.path("message").asText());
            }
        };

        @Override
        public String name() {
            return "echo";
        }

        @Override
        public List<Tool> tools() {
            return List.of(echo);
        }
    }
}
