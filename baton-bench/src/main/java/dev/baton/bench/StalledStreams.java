package dev.baton.bench;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Clients that stop reading their SSE streams, beside one user who reads normally. Each stalled client (a socket with a
 * 1 KiB receive buffer) asks for a turn whose answer is far larger than the socket buffers between Baton and it
 * (15 MB), never reads a byte, and asks again once the turn's request deadline has passed. Meanwhile the normal user
 * runs streamed turns one after another. Measured: the server's resident memory and heap (a second apart), its SSE
 * buffers, and the normal user's time to the first chunk and to {@code done}, first without the stalled clients, then
 * with them.
 *
 * <pre>
 * baton-bench/run.sh stalled [stalledClients [seconds [deadlineSeconds [serverHeap [answerKilobytes]]]]]
 *                                                    # default 8, 60 s, 10 s, 512m, 15000 (the case: 5500)
 * </pre>
 */
public final class StalledStreams {
    private static final String HUGE = BenchSimulator.HUGE_PROMPT;

    private StalledStreams() {}

    public static void main(String[] args) throws Exception {
        int stalledClients = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        Duration phase = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 60);
        int deadline = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        String heap = args.length > 3 ? args[3] : "512m";
        String answerKilobytes = args.length > 4 ? args[4] : "15000";
        try (StreamProcesses p = StreamProcesses.start(
                List.of("huge", answerKilobytes), List.of("-Xmx" + heap), List.of(Integer.toString(deadline)))) {
            String user = BenchServer.token("normal-user");
            for (int i = 0; i < 50; i++) RawSseTurn.run(p.port, user, "warm up"); // JIT, pools
            System.out.printf(
                    "server after warm-up: RSS %.0f MiB, heap %.0f MiB%n", p.serverRssMib(), p.serverHeapMib());
            Phase quiet = measure(p, user, phase, 0, deadline);
            Phase hostile = measure(p, user, phase, stalledClients, deadline);
            System.out.println(
                    "phase                 | turns | failed | first chunk p50 / p99 ms | turn p50 / p99 ms"
                            + " | RSS start / max / end MiB | heap max MiB | live heap end MiB | SSE buffered max B | stream max B");
            System.out.println(quiet.row("normal user alone"));
            System.out.println(hostile.row("+ " + stalledClients + " stalled clients"));
        }
    }

    /** What one phase measured. */
    record Phase(
            int turns,
            int failed,
            List<Long> firstChunk,
            List<Long> turn,
            double rssStart,
            double rssMax,
            double rssEnd,
            double heapMax,
            double liveHeapEnd,
            double bufferedMax,
            double streamMax) {
        String row(String name) {
            return String.format(
                    "%-21s | %5d | %6d | %10.1f / %-10.1f | %7.1f / %-7.1f | %6.0f / %5.0f / %5.0f | %12.0f | %17.0f | %18.0f | %12.0f",
                    name,
                    turns,
                    failed,
                    ms(percentile(firstChunk, 50)),
                    ms(percentile(firstChunk, 99)),
                    ms(percentile(turn, 50)),
                    ms(percentile(turn, 99)),
                    rssStart,
                    rssMax,
                    rssEnd,
                    heapMax,
                    liveHeapEnd,
                    bufferedMax,
                    streamMax);
        }
    }

    private static Phase measure(StreamProcesses p, String user, Duration length, int stalledClients, int deadline)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger stalledTurns = new AtomicInteger();
        List<Thread> stallers = new ArrayList<>();
        for (int i = 0; i < stalledClients; i++) {
            String token = BenchServer.token("stalled-" + i);
            stallers.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    try (Socket s = RawSseTurn.send(p.port, token, HUGE, 1024)) {
                        stalledTurns.incrementAndGet();
                        // never reads; asks again once the server must have given up on this turn
                        Thread.sleep(Duration.ofSeconds(deadline + 3));
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        System.out.println("stalled client: " + e);
                    }
                }
            }));
        }
        double rssStart = p.serverRssMib();
        double[] max = {rssStart, 0, 0, 0};
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (!stop.get()) {
                max[0] = Math.max(max[0], p.serverRssMib());
                max[1] = Math.max(max[1], p.serverHeapMib());
                max[2] = Math.max(max[2], p.metric("baton_sse_buffered_bytes", null));
                max[3] = Math.max(max[3], p.metric("baton_sse_stream_buffered_max_bytes", null));
                try {
                    Thread.sleep(1000); // sampling period
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        List<Long> first = Collections.synchronizedList(new ArrayList<>());
        List<Long> turn = new ArrayList<>();
        int failed = 0;
        long end = System.nanoTime() + length.toNanos();
        while (System.nanoTime() < end) {
            RawSseTurn.Result r = RawSseTurn.run(p.port, user, "hello");
            if (!r.ok()) {
                failed++;
                System.out.println("normal user's turn failed: " + r);
                continue;
            }
            first.add(r.firstChunkNanos());
            turn.add(r.endNanos());
        }
        // what the server holds while the stalled clients still wait (their turns run until the deadline)
        double live = p.serverLiveHeapMib();
        stop.set(true);
        for (Thread t : stallers) t.interrupt();
        sampler.join();
        for (Thread t : stallers) t.join();
        if (stalledClients > 0) System.out.println("stalled turns asked for: " + stalledTurns.get());
        return new Phase(
                turn.size(), failed, first, turn, rssStart, max[0], p.serverRssMib(), max[1], live, max[2], max[3]);
    }

    static long percentile(List<Long> values, int p) {
        if (values.isEmpty()) return -1;
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }
}
