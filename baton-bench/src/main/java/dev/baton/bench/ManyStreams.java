package dev.baton.bench;

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
 * Many SSE streams open at once against a paced simulator: N clients (plain sockets on virtual threads, ten thousand
 * by default) each ask for a streamed turn, opened at R a second; the model answers each slowly enough that all are
 * open together (but within a model call's 60 s limit: the simulator counts about 2.5 tokens a word, so 18 words at one
 * token a second take 45 s). Counts the turns that ended with {@code done}, every other ending (a status, an {@code error} event,
 * a connection that failed), the most streams open at once, and the server's heap and resident memory (a second apart).
 * The server runs in its own JVM with {@code -Xmx1g}, the simulator in a third.
 *
 * <pre>
 * baton-bench/run.sh streams [streams [perSecond [answerWords [tokensPerSecond]]]]   # default 10000 250 18 1.0
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
        // a deadline well past the answer's length and the ramp: every stream should end with done
        try (StreamProcesses p = StreamProcesses.start(
                List.of("paced", Integer.toString(words), Double.toString(tokensPerSecond)),
                List.of("-Xmx1g"),
                // the simulator shares the server's two cores: under this load its first token can come late, which
                // must not count as a provider failure (three of those open the model's circuit breaker); the turn's
                // and the model call's deadline, 10 minutes, lies well past a slow ramp plus a slowly paced answer
                List.of("600", "0", "120s"))) {
            String token = BenchServer.token("many-streams");
            AtomicInteger open = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            Map<String, AtomicInteger> endings = new ConcurrentHashMap<>();
            List<RawSseTurn.Result> results = new ArrayList<>();
            double[] max = {0, 0, 0};
            long started = System.nanoTime();
            List<Thread> clients = new ArrayList<>(streams);
            Thread sampler = Thread.ofVirtual().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    max[0] = Math.max(max[0], p.serverRssMib());
                    max[1] = Math.max(max[1], p.serverHeapMib());
                    max[2] = Math.max(max[2], p.metric("baton_sse_streams", null));
                    System.out.printf(
                            "t=%5.1fs open=%d ended=%d server heap %.0f MiB RSS %.0f MiB%n",
                            (System.nanoTime() - started) / 1e9,
                            open.get(),
                            results.size(),
                            p.serverHeapMib(),
                            p.serverRssMib());
                    try {
                        Thread.sleep(1000); // sampling period
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            for (int i = 0; i < streams; i++) {
                long due = started + (long) (i * 1e9 / perSecond);
                long wait = due - System.nanoTime();
                if (wait > 0) Thread.sleep(Duration.ofNanos(wait)); // the ramp's pace
                clients.add(Thread.ofVirtual().start(() -> {
                    int now = open.incrementAndGet();
                    peak.accumulateAndGet(now, Math::max);
                    RawSseTurn.Result r = RawSseTurn.run(p.port, token, "stream slowly");
                    open.decrementAndGet();
                    endings.computeIfAbsent(ending(r), k -> new AtomicInteger()).incrementAndGet();
                    synchronized (results) {
                        results.add(r);
                    }
                }));
            }
            for (Thread t : clients) t.join();
            sampler.interrupt();
            sampler.join();
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
                    "%d streams at %d/s: %d done, %d errors %s; most open at once: %d (client), %.0f (server gauge);"
                            + " first chunk p50 %.0f ms p99 %.0f ms; turn p50 %.1f s p99 %.1f s;"
                            + " server heap max %.0f MiB, RSS max %.0f MiB; took %.0f s%n",
                    streams,
                    perSecond,
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
                    max[0],
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
