package dev.baton.spring.web;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Keeps the API's quiet Server-Sent Event streams alive, as {@code baton serve} does: a stream that sent nothing for
 * an interval gets a {@code :keepalive} comment, so proxies keep it open through a long tool call or a slow model, and
 * a client that went away is noticed by the failed write (then the turn is cancelled, unless the stream was asked to
 * be resumable). One scheduler thread probes every open stream; it stops with the app.
 */
public final class SseHeartbeats implements AutoCloseable {
    private final long intervalNanos;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("baton-sse-heartbeat").factory());

    public SseHeartbeats(Duration interval) {
        if (interval.isNegative() || interval.isZero())
            throw new IllegalArgumentException("the SSE heartbeat must be positive");
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Starts probing {@code emitter}; the stream's own events must go through the returned {@link Stream} so that
     * only a quiet stream is probed.
     *
     * @param onGone runs once when a write fails: the client went away
     */
    Stream open(SseEmitter emitter, Runnable onGone) {
        Stream stream = new Stream(emitter, onGone);
        stream.beat = scheduler.scheduleAtFixedRate(stream::probe, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
        return stream;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** One open stream: its sends, its probe, its end. */
    final class Stream {
        private final SseEmitter emitter;
        private final Runnable onGone;
        private volatile long lastSent = System.nanoTime();
        private volatile boolean gone;
        private ScheduledFuture<?> beat;

        private Stream(SseEmitter emitter, Runnable onGone) {
            this.emitter = emitter;
            this.onGone = onGone;
        }

        /** Sends an event. */
        void send(SseEmitter.SseEventBuilder event) throws IOException {
            emitter.send(event);
            lastSent = System.nanoTime();
        }

        /** No more probes (the stream ended, or its client went away). */
        void stop() {
            ScheduledFuture<?> b = beat;
            if (b != null) b.cancel(false);
        }

        private void probe() {
            if (gone || System.nanoTime() - lastSent < intervalNanos) return;
            try {
                emitter.send(SseEmitter.event().comment("keepalive"));
                lastSent = System.nanoTime();
            } catch (IOException | IllegalStateException e) {
                gone = true;
                stop();
                onGone.run();
            }
        }
    }
}
