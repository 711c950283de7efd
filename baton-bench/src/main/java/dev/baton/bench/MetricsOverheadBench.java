package dev.baton.bench;

import dev.baton.server.metrics.BatonMetrics;
import dev.baton.server.metrics.HttpMetrics;
import dev.baton.server.metrics.MetricsSettings;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * What the request metrics add to every HTTP request: {@link HttpMetrics#record} — the meter lookup by method,
 * route template and status, and one observation in a 13-bucket latency histogram — on the Prometheus registry
 * {@code GET /metrics} reads ({@code enabled=true}) and on the no-op registry of {@code metrics.enabled: false}.
 * Each call picks one of 8 route/status series at random, as a server's mix does (the pick costs a few ns). Compare with a request's own cost:
 * {@code GET /healthz} over loopback takes a few hundred microseconds, a turn milliseconds.
 * {@link #scrape} is one {@code GET /metrics} body with those series and the JVM meters.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-DBATON_LOG_LEVEL=WARN", "-Xms256m", "-Xmx256m"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class MetricsOverheadBench {
    private static final String[][] REQUESTS = {
        {"POST", "/v1/sessions/{id}/messages", "200"},
        {"GET", "/v1/sessions/{id}/messages", "200"},
        {"POST", "/v1/sessions", "201"},
        {"GET", "/v1/sessions/{id}", "200"},
        {"GET", "/v1/sessions/{id}", "404"},
        {"POST", "/v1/sessions/{id}/messages", "429"},
        {"GET", "/healthz", "200"},
        {"GET", "unmatched", "404"},
    };

    @Param({"true", "false"})
    public boolean enabled;

    private BatonMetrics metrics;
    private HttpMetrics http;

    @Setup
    public void setUp() {
        metrics = BatonMetrics.create(new MetricsSettings(enabled, null));
        http = new HttpMetrics(metrics.registry());
    }

    @TearDown
    public void tearDown() {
        metrics.close();
    }

    @Benchmark
    @Threads(1)
    public void recordRequest() {
        String[] r = REQUESTS[ThreadLocalRandom.current().nextInt(8)];
        http.record(r[0], r[1], Integer.parseInt(r[2]), 1_234_567);
    }

    /** The same from two threads at once: contention on the shared histograms. */
    @Benchmark
    @Threads(2)
    public void recordRequestTwoThreads() {
        String[] r = REQUESTS[ThreadLocalRandom.current().nextInt(8)];
        http.record(r[0], r[1], Integer.parseInt(r[2]), 1_234_567);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public String scrape() {
        return enabled ? metrics.scrape() : "";
    }
}
