package dev.baton.bench;

import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether turns waiting on a slow model hold database connections: C clients each run tool turns back to back in a
 * conversation of their own against a simulator that waits before every answer, while the pool's lent-out and
 * awaited connections ({@code baton_database_connections_active} / {@code _pending}) and the turns open are sampled.
 * A turn that held its connection while waiting would keep the pool at its size (4 on SQLite) and make the other turns
 * queue for one; a turn that does not leaves the pool at about (writes per second × time per write), whatever C is.
 *
 * <pre>
 * baton-bench/run.sh connections [clients] [modelLatencyMs] [seconds]      # default 200 clients, 500 ms, 20 s
 * </pre>
 */
public final class ConnectionsUnderLoad {
    private ConnectionsUnderLoad() {}

    public static void main(String[] args) throws Exception {
        int clients = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Duration latency = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 500);
        Duration length = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 20);
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays(
                        BenchScripts.TOOL_PROMPT,
                        Reply.toolCall("add_task", "{\"title\":\"Benchmark task\",\"priority\":\"high\"}"))
                .whenToolResult("add_task", Reply.text(BenchScripts.TOOL_ANSWER))
                .fallback(BenchScripts.TEXT_ANSWER)
                .firstTokenLatency(latency)
                .build();
        AtomicLong turns = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        try (BenchServer server = BenchServer.start(script)) {
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                workers.add(Thread.ofVirtual().start(() -> {
                    String session = server.startSession();
                    while (!stop.get()) {
                        try {
                            server.send(session, BenchScripts.TOOL_PROMPT);
                            turns.incrementAndGet();
                        } catch (RuntimeException e) {
                            failures.incrementAndGet();
                        }
                    }
                }));
            }
            // the first turns start together: measure once they are spread out
            Thread.sleep(latency.multipliedBy(4).toMillis());
            long turnsBefore = turns.get();
            long started = System.nanoTime();
            List<Double> active = new ArrayList<>();
            List<Double> pending = new ArrayList<>();
            List<Integer> open = new ArrayList<>();
            while (System.nanoTime() - started < length.toNanos()) {
                active.add(server.gauge("baton_database_connections_active"));
                pending.add(server.gauge("baton_database_connections_pending"));
                open.add(server.runtime().runningTurns().count());
                Thread.sleep(20);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            long measured = turns.get() - turnsBefore;
            stop.set(true);
            for (Thread w : workers) w.join();
            System.out.printf(
                    "connections: %d clients, the model waits %d ms before each of a turn's two answers, %.0f s%n",
                    clients, latency.toMillis(), seconds);
            System.out.printf(
                    "  %.1f tool turns/s, %d failed; turns open: mean %.1f, min %d%n",
                    measured / seconds,
                    failures.get(),
                    open.stream().mapToInt(Integer::intValue).average().orElse(0),
                    open.stream().mapToInt(Integer::intValue).min().orElse(0));
            System.out.printf(
                    "  connections lent out (%d samples): mean %.2f, p99 %.0f, max %.0f; threads waiting for one: max %.0f%n",
                    active.size(),
                    active.stream().mapToDouble(Double::doubleValue).average().orElse(0),
                    percentile(active, 0.99),
                    percentile(active, 1.0),
                    percentile(pending, 1.0));
        }
    }

    private static double percentile(List<Double> values, double q) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    }
}
