package dev.baton.bench;

import dev.baton.server.http.HttpApi;
import dev.baton.testkit.http.H2cClient;
import dev.baton.testkit.http.H2cConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Many SSE streams open at once against a paced simulator: N clients (on virtual threads, ten thousand by default)
 * each ask for a streamed turn, opened at R a second, each over a socket of its own (HTTP/1.1) or as streams of C
 * HTTP/2 cleartext connections; the model answers each slowly enough that all are
 * open together (but within a model call's 60 s limit: the simulator counts about 2.5 tokens a word, so 18 words at one
 * token a second take 45 s). Counts the turns that ended with {@code done}, every other ending (a status, an {@code error} event,
 * a connection that failed), the most streams open at once, and the server's heap, resident memory and open file
 * descriptors (a second apart), and its live heap after a full GC once every stream was started. The server runs in its own JVM with {@code -Xmx1g}, the simulator in a third.
 *
 * <pre>
 * baton-bench/run.sh streams [streams [perSecond [answerWords [tokensPerSecond [h2cConnections]]]]]
 *     # default 10000 250 18 1.0 0; h2cConnections 0: HTTP/1.1, a socket per stream
 * </pre>
 */
public final class ManyStreams {
    private static final Pattern ERROR_CODE = Pattern.compile("\"code\":\"([^\"]+)\"");

    private ManyStreams() {}

    public static void main(String[] args) throws Exception {
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int perSecond = args.length > 1 ? Integer.parseInt(args[1]) : 250;
        int words = args.length > 2 ? Integer.parseInt(args[2]) : 18;
        double tokensPerSecond = args.length > 3 ? Double.parseDouble(args[3]) : 1.0;
        int h2cConnections = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        if (h2cConnections > 0 && streams > h2cConnections * (long) HttpApi.MAX_STREAMS_PER_CONNECTION)
            throw new IllegalArgumentException("the server takes at most " + HttpApi.MAX_STREAMS_PER_CONNECTION
                    + " streams per HTTP/2 connection: use at least "
                    + -Math.floorDiv(-streams, HttpApi.MAX_STREAMS_PER_CONNECTION)
                    + " connections");
        // a deadline well past the answer's length and the ramp: every stream should end with done
        try (StreamProcesses p = StreamProcesses.start(
                List.of("paced", Integer.toString(words), Double.toString(tokensPerSecond)),
                List.of("-Xmx1g"),
                // the simulator shares the server's two cores: under this load its first token can come late, which
                // must not count as a provider failure (three of those open the model's circuit breaker); the turn's
                // and the model call's deadline, 10 minutes, lies well past a slow ramp plus a slowly paced answer
                List.of("600", "0", "120s"))) {
            String token = BenchServer.token("many-streams");
            H2cClient h2c = h2cConnections > 0 ? H2cClient.start(1024 * 1024) : null;
            List<H2cConnection> connections = new ArrayList<>();
            for (int c = 0; c < h2cConnections; c++) connections.add(h2c.connect("127.0.0.1", p.port));
            AtomicInteger open = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            Map<String, AtomicInteger> endings = new ConcurrentHashMap<>();
            List<RawSseTurn.Result> results = new ArrayList<>();
            double[] max = {0, 0, 0, 0, 0};
            long started = System.nanoTime();
            List<Thread> clients = new ArrayList<>(streams);
            Thread sampler = Thread.ofVirtual().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    max[0] = Math.max(max[0], p.serverRssMib());
                    max[1] = Math.max(max[1], p.serverHeapMib());
                    max[2] = Math.max(max[2], p.metric("baton_sse_streams", null));
                    long serverFds = p.serverDescriptors();
                    long simulatorFds = p.simulatorDescriptors();
                    max[3] = Math.max(max[3], serverFds);
                    max[4] = Math.max(max[4], simulatorFds);
                    System.out.printf(
                            "t=%5.1fs open=%d ended=%d server heap %.0f MiB RSS %.0f MiB fds %d (simulator %d)%n",
                            (System.nanoTime() - started) / 1e9,
                            open.get(),
                            results.size(),
                            p.serverHeapMib(),
                            p.serverRssMib(),
                            serverFds,
                            simulatorFds);
                    try {
                        Thread.sleep(1000); // sampling period
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            for (int i = 0; i < streams; i++) {
                H2cConnection connection = h2cConnections > 0 ? connections.get(i % h2cConnections) : null;
                long due = started + (long) (i * 1e9 / perSecond);
                long wait = due - System.nanoTime();
                if (wait > 0) Thread.sleep(Duration.ofNanos(wait)); // the ramp's pace
                clients.add(Thread.ofVirtual().start(() -> {
                    int now = open.incrementAndGet();
                    peak.accumulateAndGet(now, Math::max);
                    RawSseTurn.Result r = connection != null
                            ? H2cSseTurn.run(connection, token, "stream slowly")
                            : RawSseTurn.run(p.port, token, "stream slowly");
                    open.decrementAndGet();
                    endings.computeIfAbsent(ending(r), k -> new AtomicInteger()).incrementAndGet();
                    synchronized (results) {
                        results.add(r);
                    }
                }));
            }
            // every stream was opened and none has ended yet when the answers outlast the ramp: what the server
            // really holds for them, once, after a full GC it is asked for (a pause of a second or two)
            int openWhenAllStarted = open.get();
            double liveHeap = p.serverLiveHeapMib();
            System.out.printf(
                    "all %d streams started, %d open: server live heap after a full GC %.0f MiB%n",
                    streams, openWhenAllStarted, liveHeap);
            for (Thread t : clients) t.join();
            sampler.interrupt();
            sampler.join();
            connections.forEach(H2cConnection::close);
            if (h2c != null) h2c.close();
            long ok = results.stream().filter(RawSseTurn.Result::ok).count();
            List<Long> first = results.stream()
                    .filter(RawSseTurn.Result::ok)
                    .map(RawSseTurn.Result::firstChunkNanos)
                    .toList();
            List<Long> total = results.stream()
                    .filter(RawSseTurn.Result::ok)
                    .map(RawSseTurn.Result::endNanos)
                    .toList();
            Map<String, Integer> summary = new LinkedHashMap<>();
            endings.forEach((k, v) -> summary.put(k, v.get()));
            System.out.printf(
                    "%d streams at %d/s over %s: %d done, %d errors %s; most open at once: %d (client), %.0f (server"
                            + " gauge); first chunk p50 %.0f ms p99 %.0f ms; turn p50 %.1f s p99 %.1f s;"
                            + " server heap max %.0f MiB (live %.0f MiB with %d open), RSS max %.0f MiB,"
                            + " descriptors max %.0f (simulator %.0f);"
                            + " took %.0f s%n",
                    streams,
                    perSecond,
                    h2cConnections > 0 ? "h2c on " + h2cConnections + " connections" : "HTTP/1.1",
                    ok,
                    streams - ok,
                    summary,
                    peak.get(),
                    max[2],
                    StalledStreams.ms(StalledStreams.percentile(first, 50)),
                    StalledStreams.ms(StalledStreams.percentile(first, 99)),
                    StalledStreams.percentile(total, 50) / 1e9,
                    StalledStreams.percentile(total, 99) / 1e9,
                    max[1],
                    liveHeap,
                    openWhenAllStarted,
                    max[0],
                    max[3],
                    max[4],
                    (System.nanoTime() - started) / 1e9);
        }
    }

    /** How a stream ended, by kind: "done", an error event's code, a status, or why the connection stopped. */
    private static String ending(RawSseTurn.Result r) {
        if (r.ok()) return "done";
        Matcher code = ERROR_CODE.matcher(r.ended());
        return code.find() ? "error " + code.group(1) : r.ended();
    }
}
