package dev.baton.bench;

import java.util.List;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * A full turn over real HTTP (JSON mode) against a real server on SQLite, the simulator answering instantly, in
 * a conversation that already holds {@code history} messages. The claim checked: the time of a turn does not grow
 * with the conversation's length.
 *
 * <p>Each turn adds two messages, so every iteration starts by cutting the conversation back to {@code history};
 * iterations are short (500 ms, a few dozen turns) so it drifts by about a hundred messages at most before the next cut.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-DBATON_LOG_LEVEL=WARN", "-Xms512m", "-Xmx512m"})
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 8, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class TurnLatencyBench {

    /** Messages in the conversation before the measured turns. */
    @Param({"10", "1000", "10000"})
    public int history;

    private BenchServer server;
    private String session;

    @Setup(Level.Trial)
    public void start() {
        server = BenchServer.start();
        session = server.startSession();
        server.seedHistory(session, history);
        // prove both kinds of turn work before timing them; a benchmark of failures measures nothing
        check(server.send(session, BenchScripts.TEXT_PROMPT), BenchScripts.TEXT_ANSWER, List.of());
        check(server.send(session, BenchScripts.TOOL_PROMPT), BenchScripts.TOOL_ANSWER, List.of("succeeded"));
    }

    @Setup(Level.Iteration)
    public void cutBackToHistory() {
        server.resetHistory(session, history);
    }

    @TearDown(Level.Trial)
    public void stop() {
        server.close();
    }

    /** User message → model answers with text → saved. One model call. */
    @Benchmark
    public BenchServer.TurnReply textTurn() {
        return server.send(session, BenchScripts.TEXT_PROMPT);
    }

    /** User message → model calls add_task → the task is written → model answers → saved. Two model calls. */
    @Benchmark
    public BenchServer.TurnReply toolTurn() {
        return server.send(session, BenchScripts.TOOL_PROMPT);
    }

    static void check(BenchServer.TurnReply reply, String answer, List<String> toolStates) {
        if (!reply.answer().equals(answer) || !reply.toolStates().equals(toolStates)) {
            throw new IllegalStateException("unexpected turn: " + reply);
        }
    }
}
