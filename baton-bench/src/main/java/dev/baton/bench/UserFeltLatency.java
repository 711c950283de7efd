package dev.baton.bench;

import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a user feels of Baton, measured the way independent gateway benchmarks measure a gateway: against the same
 * model reached directly.
 *
 * <ol>
 *   <li><b>Streaming</b> (the model paced: {@code upstreamMs} before its first token, then 200 tokens/s): one text
 *       turn at a time over Baton's event stream, interleaved with the same model call made directly (the request body
 *       Baton sent, replayed), then the same for tool turns and their two model calls. Added time to first token =
 *       Baton's first {@code chunk} event − the direct client's first text delta of the last call (for a tool turn,
 *       after the whole first call); added per-token gap = the gaps between Baton's {@code chunk} events − the gaps
 *       between the model's deltas.
 *   <li><b>Sequential</b> (the model answering instantly): one JSON tool turn at a time, interleaved with the two
 *       direct calls read to their end: added p50 and p99 at concurrency 1.
 *   <li><b>Sustained</b> (the model waiting {@code upstreamMs} before each answer): JSON tool turns started at a
 *       fixed rate ({@link OpenLoopLoad}), the rate raised by half each step until a step fails or its p99 reaches
 *       1 s: the highest rate sustained.
 * </ol>
 *
 * <p>Server, model and clients share this JVM (the server's real HTTP, SQLite or PostgreSQL, the simulator over
 * HTTP): the direct client pays the same client-side costs as Baton's, so the difference is Baton's.
 *
 * <pre>
 * baton-bench/run.sh felt [turns [upstreamMs [stepSeconds [sqlite|postgres [startRate]]]]]   # 300 20 10 sqlite 50
 * </pre>
 */
public final class UserFeltLatency {
    private static final String LONG_ANSWER = "Added your benchmark task; here is a longer answer so that a stream"
            + " has enough pieces to time the gaps between them, one word at a time, the way a model streams a reply"
            + " of a sentence or two to a person reading along as it arrives on the screen.";
    private static final long P99_BOUND_NANOS = Duration.ofSeconds(1).toNanos();

    private UserFeltLatency() {}

    public static void main(String[] args) throws Exception {
        int turns = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        Duration upstream = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 20);
        int stepSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        boolean postgres = args.length > 3 && args[3].equals("postgres");
        int startRate = args.length > 4 ? Integer.parseInt(args[4]) : 50;
        int warmTurns = args.length > 5 ? Integer.parseInt(args[5]) : 3_000;

        PostgresTestDatabase pg = postgres ? PostgresTestDatabase.create() : null;
        try (BenchServer server = BenchServer.start(
                script(Duration.ZERO, 0), StatementsPerTurn.priced(), Map.of(), pg == null ? null : pg.url())) {
            HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            System.out.printf(
                    "user-felt latency on %s; upstream %d ms; %d turns per measurement%n",
                    postgres ? "PostgreSQL" : "SQLite", upstream.toMillis(), turns);
            warmUpCompiler(server, warmTurns);
            streaming(server, http, turns, upstream);
            sequential(server, http, turns);
            sustained(server, upstream, stepSeconds, startRate);
        } finally {
            if (pg != null) pg.drop();
        }
    }

    /** The task agent's tool turn, answered with {@link #LONG_ANSWER}, at that pace. */
    private static SimulatorScript script(Duration firstToken, double tokensPerSecond) {
        return SimulatorScript.builder()
                .whenUserSays(
                        BenchScripts.TOOL_PROMPT,
                        Reply.toolCall("add_task", "{\"title\":\"Benchmark task\",\"priority\":\"high\"}"))
                .whenToolResult("add_task", Reply.text(LONG_ANSWER))
                .fallback(BenchScripts.TEXT_ANSWER)
                .firstTokenLatency(firstToken)
                .tokensPerSecond(tokensPerSecond)
                .build();
    }

    private static void streaming(BenchServer server, HttpClient http, int turns, Duration upstream) {
        server.script(script(upstream, 200));
        streamed(server, http, turns, BenchScripts.TEXT_PROMPT, 1, "text turn");
        streamed(server, http, turns, BenchScripts.TOOL_PROMPT, 2, "tool turn");
    }

    /** Turns of {@code prompt} over SSE, interleaved with their {@code calls} model calls made directly. */
    private static void streamed(
            BenchServer server, HttpClient http, int turns, String prompt, int calls, String kind) {
        String session = server.startSession();
        List<String> bodies = warmUp(server, session, prompt, calls);
        List<Long> batonFirst = new ArrayList<>(), directFirst = new ArrayList<>();
        List<Long> batonGaps = new ArrayList<>(), directGaps = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
            StreamTimings baton = StreamTimings.baton(http, sseTurn(server, session, prompt));
            server.resetHistory(session, 0);
            StreamTimings direct = direct(server, http, bodies);
            batonFirst.add(baton.firstTokenNanos());
            directFirst.add(direct.firstTokenNanos());
            batonGaps.addAll(baton.gaps());
            directGaps.addAll(direct.gaps());
        }
        report("time to first token, " + kind + " (SSE)", batonFirst, directFirst);
        report("gap between tokens, " + kind + " (SSE)", batonGaps, directGaps);
    }

    private static void sequential(BenchServer server, HttpClient http, int turns) {
        server.script(script(Duration.ZERO, 0));
        String session = server.startSession();
        List<String> bodies = warmUp(server, session, BenchScripts.TOOL_PROMPT, 2);
        List<Long> baton = new ArrayList<>(), direct = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
            long start = System.nanoTime();
            server.send(session, BenchScripts.TOOL_PROMPT);
            baton.add(System.nanoTime() - start);
            server.resetHistory(session, 0);
            direct.add(direct(server, http, bodies).endNanos());
        }
        report("whole tool turn at concurrency 1 (JSON)", baton, direct);
    }

    private static void sustained(BenchServer server, Duration upstream, int stepSeconds, int startRate)
            throws InterruptedException {
        server.script(script(upstream, 0));
        List<String> conversations = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) conversations.add(server.startSession());
        OpenLoopLoad load = new OpenLoopLoad(conversations, c -> server.send(c, BenchScripts.TOOL_PROMPT));
        load.run(startRate, 3); // warm-up, not reported
        int best = 0;
        for (int rate = startRate; ; rate = rate * 3 / 2) {
            for (String c : conversations) server.resetHistory(c, 0);
            OpenLoopLoad.Step step = load.run(rate, stepSeconds);
            System.out.printf(
                    "  %5d turns/s offered: %d started, %d failed, p50 %d ms, p99 %d ms%n",
                    rate,
                    step.started(),
                    step.failed(),
                    OpenLoopLoad.millis(step.p50()),
                    OpenLoopLoad.millis(step.p99()));
            if (!step.sustained(P99_BOUND_NANOS)) break;
            best = rate;
        }
        System.out.printf(
                "sustained tool turns/s with p99 < 1 s against a %d ms upstream: %d%n", upstream.toMillis(), best);
    }

    /**
     * Unmeasured tool turns at zero latency before anything is measured: the JIT compiles the turn's code in the first
     * few thousand turns, and until then the compiler threads take most of a 2-core machine's CPU, so a figure taken
     * earlier measures the compiler, not the turn.
     */
    private static void warmUpCompiler(BenchServer server, int warmTurns) {
        server.script(script(Duration.ZERO, 0));
        String session = server.startSession();
        for (int i = 0; i < warmTurns; i++) {
            server.send(session, BenchScripts.TOOL_PROMPT);
            if (i % 10 == 9) server.resetHistory(session, 0);
        }
        server.resetHistory(session, 0);
    }

    /** Unmeasured turns of {@code prompt}; returns the model requests the last one made, to replay directly. */
    private static List<String> warmUp(BenchServer server, String session, String prompt, int calls) {
        for (int i = 0; i < 20; i++) {
            server.send(session, prompt);
            server.resetHistory(session, 0);
        }
        server.send(session, prompt);
        List<String> bodies = server.modelRequestBodies();
        server.resetHistory(session, 0);
        if (bodies.size() != calls)
            throw new IllegalStateException("a turn made " + bodies.size() + " model calls, not " + calls);
        return bodies;
    }

    /** The turn's model calls made directly, one after the other, the last one's times from the first's start. */
    private static StreamTimings direct(BenchServer server, HttpClient http, List<String> bodies) {
        URI endpoint = URI.create(server.simulatorUrl() + "/chat/completions");
        long start = System.nanoTime();
        for (String body : bodies.subList(0, bodies.size() - 1)) StreamTimings.openAi(http, endpoint, body);
        long lastStart = System.nanoTime() - start;
        return StreamTimings.openAi(http, endpoint, bodies.getLast()).shiftedBy(lastStart);
    }

    private static HttpRequest sseTurn(BenchServer server, String session, String prompt) {
        return HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/v1/sessions/" + session + "/messages"))
                .header("Authorization", "Bearer " + server.token())
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"" + prompt + "\"}"))
                .build();
    }

    private static void report(String what, Collection<Long> baton, Collection<Long> direct) {
        List<Long> b = List.copyOf(baton), d = List.copyOf(direct);
        long b50 = StalledStreams.percentile(b, 50), b99 = StalledStreams.percentile(b, 99);
        long d50 = StalledStreams.percentile(d, 50), d99 = StalledStreams.percentile(d, 99);
        System.out.printf(
                "%s: Baton p50 %.2f ms p99 %.2f ms; direct p50 %.2f ms p99 %.2f ms; added p50 %.2f ms p99 %.2f ms"
                        + " (%d samples)%n",
                what,
                StalledStreams.ms(b50),
                StalledStreams.ms(b99),
                StalledStreams.ms(d50),
                StalledStreams.ms(d99),
                StalledStreams.ms(b50 - d50),
                StalledStreams.ms(b99 - d99),
                b.size());
    }
}
