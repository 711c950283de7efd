package dev.baton.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.util.List;
import java.util.Map;
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
 * 16 turns at once, each in its own conversation, each calling one tool: server-everything's {@code echo} through one
 * stdio MCP server, or the in-process {@code get_current_time} for comparison. Every turn makes one tool call, so
 * turns per second are MCP calls per second through that one server (with the whole turn around each: two model
 * calls to the simulator, the messages and tool call saved on SQLite).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(16)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-DBATON_LOG_LEVEL=WARN", "-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class McpTurnThroughputBench {
    static final String ECHOER = """
            id: echoer
            systemPrompt: You echo.
            model: simulator:default
            tools: ["mcp:everything/echo"]
            """;

    @Param({"stdio", "in-process"})
    public String tool;

    BenchServer server;
    private McpPeers peers;

    @Setup(Level.Trial)
    public void start() {
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays("echo", Reply.toolCall("everything__echo", "{\"message\":\"hi\"}"))
                .whenUserSays("time", Reply.toolCall("get_current_time", "{}"))
                .whenToolResult(null, Reply.text("ok"))
                .build();
        ObjectNode sections = JsonNodeFactory.instance.objectNode();
        if (tool.equals("stdio")) {
            peers = new McpPeers();
            sections.set("mcp", peers.mcpSection("stdio"));
        }
        server = BenchServer.start(script, sections, Map.of("echoer", ECHOER));
    }

    @TearDown(Level.Trial)
    public void stop() {
        server.close();
        if (peers != null) peers.close();
    }

    /** One conversation per benchmark thread: a session runs one turn at a time. */
    @State(Scope.Thread)
    public static class Conversation {
        String session;
        String prompt;

        @Setup(Level.Trial)
        public void open(McpTurnThroughputBench bench) {
            boolean mcp = bench.tool.equals("stdio");
            session = bench.server.startSession(mcp ? "echoer" : "tasks");
            prompt = mcp ? "echo" : "time";
            TurnLatencyBench.check(bench.server.send(session, prompt), "ok", List.of("succeeded"));
        }
    }

    @Benchmark
    public BenchServer.TurnReply turn(Conversation conversation) {
        return server.send(conversation.session, conversation.prompt);
    }
}
