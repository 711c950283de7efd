package dev.baton.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Steady turns against a real server and the simulator for a while, with the heap measured after a full GC at every
 * sample: a leak shows as a heap that keeps growing. Prints each sample and the least-squares slope of the heap after
 * GC over time (MiB per minute), skipping the first sample (warm-up).
 *
 * <pre>
 * baton-bench/run.sh soak [minutes] [sampleSeconds] [clients] [keep-all]   # default 30 min, a sample a minute, 4 clients
 * </pre>
 *
 * {@code keep-all} makes the simulator keep every request it receives, as it did before its recording was bounded:
 * the slope then shows that leak.
 *
 * The 30-minute run wants a quiet machine; a few minutes with 20 s samples shows the trend on a shared one.
 */
public final class Soak {
    private static final int TURNS_PER_SESSION = 50;

    private Soak() {}

    public static void main(String[] args) throws Exception {
        Duration length = Duration.ofSeconds((long) (60 * (args.length > 0 ? Double.parseDouble(args[0]) : 30)));
        Duration every = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 60);
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        boolean keepAll = args.length > 3 && args[3].equals("keep-all");
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        AtomicLong turns = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        try (BenchServer server = BenchServer.start()) {
            if (keepAll) server.keepAllModelRequests();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                workers.add(Thread.ofVirtual().start(() -> {
                    while (!stop.get()) {
                        String session = server.startSession();
                        for (int t = 0; t < TURNS_PER_SESSION && !stop.get(); t++) {
                            try {
                                server.send(session, t % 2 == 0 ? BenchScripts.TEXT_PROMPT : BenchScripts.TOOL_PROMPT);
                                turns.incrementAndGet();
                            } catch (RuntimeException e) {
                                failures.incrementAndGet();
                            }
                        }
                    }
                }));
            }
            long started = System.nanoTime();
            List<double[]> samples = new ArrayList<>(); // {minutes, MiB}
            System.out.printf(
                    "soak: %s, a sample every %s, %d clients%s%n",
                    length, every, clients, keepAll ? ", the simulator keeping every request" : "");
            while (true) {
                long elapsed = System.nanoTime() - started;
                System.gc();
                double mib = memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
                double minutes = elapsed / 60e9;
                samples.add(new double[] {minutes, mib});
                System.out.printf(
                        "t=%6.2f min  heap after GC=%8.1f MiB  turns=%d  failed=%d  pendingUsage=%d%n",
                        minutes,
                        mib,
                        turns.get(),
                        failures.get(),
                        server.runtime().pendingUsageRows());
                if (elapsed >= length.toNanos()) break;
                Thread.sleep(Math.min(every.toMillis(), Math.max(1, (length.toNanos() - elapsed) / 1_000_000)));
            }
            stop.set(true);
            for (Thread w : workers) w.join();
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(
                    "soak: %d turns (%.1f/s), %d failed; heap slope %.3f MiB/min over %d samples (first skipped)%n",
                    turns.get(),
                    turns.get() / seconds,
                    failures.get(),
                    slope(samples.subList(1, samples.size())),
                    samples.size() - 1);
        }
    }

    /** Least-squares slope of y over x. */
    static double slope(List<double[]> points) {
        int n = points.size();
        if (n < 2) return Double.NaN;
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (double[] p : points) {
            sx += p[0];
            sy += p[1];
            sxx += p[0] * p[0];
            sxy += p[0] * p[1];
        }
        return (n * sxy - sx * sy) / (n * sxx - sx * sx);
    }
}
