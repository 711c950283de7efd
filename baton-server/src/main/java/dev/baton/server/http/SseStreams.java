package dev.baton.server.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's SSE streams: how many bytes each may hold for a client that does not take them
 * ({@code server.sseBufferBytes}), how often a quiet one is probed, and their meters — open streams, bytes buffered
 * now (all streams), the most one stream ever held, and how many streams had to wait for their client.
 */
public final class SseStreams {
    /** Bytes one stream may hold for its client by default: about 150 chunk events. */
    public static final int DEFAULT_BUFFER_BYTES = 16 * 1024;

    private final int bufferBytes;
    private final Duration heartbeat;
    private final AtomicLong open = new AtomicLong();
    private final AtomicLong buffered = new AtomicLong();
    private final AtomicLong peakPerStream = new AtomicLong();
    private final Counter stalls;

    /**
     * @param bufferBytes the bound of each stream's outbound buffer (at least 1)
     * @param heartbeat how long a stream stays quiet before a keepalive comment probes its client
     */
    public SseStreams(int bufferBytes, Duration heartbeat, MeterRegistry registry) {
        if (bufferBytes < 1) throw new IllegalArgumentException("the SSE buffer must hold at least one byte");
        if (heartbeat.isNegative() || heartbeat.isZero())
            throw new IllegalArgumentException("the SSE heartbeat must be positive");
        this.bufferBytes = bufferBytes;
        this.heartbeat = heartbeat;
        Gauge.builder("baton.sse.streams", open, AtomicLong::get)
                .description("SSE streams open now")
                .register(registry);
        Gauge.builder("baton.sse.buffered.bytes", buffered, AtomicLong::get)
                .description("bytes the open SSE streams hold for their clients, all streams together")
                .baseUnit("bytes")
                .register(registry);
        Gauge.builder("baton.sse.stream.buffered.max.bytes", peakPerStream, AtomicLong::get)
                .description("the most bytes any one SSE stream held for its client since the start; at most "
                        + "server.sseBufferBytes")
                .baseUnit("bytes")
                .register(registry);
        this.stalls = Counter.builder("baton.sse.stalled")
                .description("SSE streams whose turn had to wait because the client did not take the events")
                .register(registry);
    }

    /**
     * A stream on {@code out}.
     *
     * @param onDisconnect runs once when a write fails (the client went away)
     * @param abortConnection closes the connection under a blocked write (see {@link SseWriter#abortIfBlocked})
     */
    public SseWriter open(OutputStream out, Runnable onDisconnect, Runnable abortConnection) {
        return new SseWriter(out, this, onDisconnect, abortConnection);
    }

    public int bufferBytes() {
        return bufferBytes;
    }

    public Duration heartbeat() {
        return heartbeat;
    }

    void opened() {
        open.incrementAndGet();
    }

    void closed() {
        open.decrementAndGet();
    }

    /** One stream's buffer changed by {@code delta} bytes and now holds {@code streamNow}. */
    void buffered(int delta, int streamNow) {
        buffered.addAndGet(delta);
        if (streamNow > peakPerStream.get()) peakPerStream.accumulateAndGet(streamNow, Math::max);
    }

    void stalled() {
        stalls.increment();
    }
}
