package dev.baton.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SseWriterTest {
    private static final int BOUND = 1024;
    private static final String DATA = "{\"type\":\"chunk\",\"content\":\"" + "x".repeat(80) + "\"}";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SseStreams streams = new SseStreams(BOUND, Duration.ofHours(1), registry);

    /** A connection whose client takes nothing until released; then everything, or a failure. */
    private static final class Client extends OutputStream {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch writing = new CountDownLatch(1);
        final ByteArrayOutputStream taken = new ByteArrayOutputStream();
        final AtomicInteger writes = new AtomicInteger();
        volatile boolean fail;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes.incrementAndGet();
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new InterruptedIOException();
            }
            if (fail) throw new IOException("the connection was closed");
            synchronized (taken) {
                taken.write(b, off, len);
            }
        }

        String text() {
            synchronized (taken) {
                return taken.toString(StandardCharsets.UTF_8);
            }
        }
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private double stalls() {
        return registry.get("baton.sse.stalled").counter().count();
    }

    @Test
    void a_sender_waits_while_the_buffer_is_full_and_the_stream_never_holds_more_than_the_bound() throws Exception {
        Client client = new Client();
        SseWriter writer = streams.open(client, () -> {}, () -> {});
        AtomicInteger sent = new AtomicInteger();
        Thread sender = Thread.ofVirtual().start(() -> {
            for (int i = 0; i < 50; i++) if (writer.send(0, "chunk", DATA)) sent.incrementAndGet();
        });

        await().atMost(Duration.ofSeconds(30)).until(() -> stalls() == 1);
        assertThat(sent.get()).as("events taken before the buffer filled").isLessThan(50);
        assertThat(gauge("baton.sse.stream.buffered.max.bytes")).isEqualTo(BOUND);
        assertThat(gauge("baton.sse.buffered.bytes")).isLessThanOrEqualTo(BOUND);

        client.release.countDown();
        sender.join();
        writer.close();
        assertThat(sent.get()).isEqualTo(50);
        String text = client.text();
        assertThat(text).startsWith("id: 1\nevent: chunk\ndata: " + DATA + "\n\n");
        assertThat(text).endsWith("id: 50\nevent: chunk\ndata: " + DATA + "\n\n");
        assertThat(text.split("\nevent: chunk\n", -1)).hasSize(51);
        assertThat(gauge("baton.sse.buffered.bytes")).isZero();
        assertThat(gauge("baton.sse.stream.buffered.max.bytes")).isEqualTo(BOUND);
        assertThat(gauge("baton.sse.streams")).isZero();
    }

    @Test
    void an_event_larger_than_the_bound_goes_out_whole_in_slices() throws Exception {
        Client client = new Client();
        client.release.countDown();
        String big = "{\"type\":\"tool_result\",\"result\":\"" + "y".repeat(5 * BOUND) + "\"}";
        try (SseWriter writer = streams.open(client, () -> {}, () -> {})) {
            assertThat(writer.send(7, "tool_result", big)).isTrue();
        }
        assertThat(client.text()).isEqualTo("id: 7\nevent: tool_result\ndata: " + big + "\n\n");
        assertThat(gauge("baton.sse.stream.buffered.max.bytes")).isLessThanOrEqualTo(BOUND);
    }

    @Test
    void heartbeats_do_not_pile_up_behind_a_client_that_stopped_reading() {
        SimpleMeterRegistry own = new SimpleMeterRegistry();
        SseStreams fast = new SseStreams(BOUND, Duration.ofMillis(5), own);
        Client client = new Client();
        SseWriter writer = fast.open(client, () -> {}, () -> {});
        await().atMost(Duration.ofSeconds(30)).until(() -> client.writing.getCount() == 0);

        // many heartbeat periods pass while the first keepalive's write is blocked
        await().during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> own.get("baton.sse.buffered.bytes").gauge().value() == ": keepalive\n\n".length());
        assertThat(client.writes.get()).isEqualTo(1);

        client.release.countDown();
        writer.close();
        assertThat(client.text()).startsWith(": keepalive\n\n");
    }

    @Test
    void a_cancelled_turn_closes_the_connection_under_a_blocked_write_and_its_sender_stops_waiting() throws Exception {
        Client client = new Client();
        AtomicBoolean aborted = new AtomicBoolean();
        AtomicInteger disconnects = new AtomicInteger();
        SseWriter writer = streams.open(client, disconnects::incrementAndGet, () -> {
            aborted.set(true);
            client.fail = true;
            client.release.countDown();
        });
        AtomicBoolean lastTaken = new AtomicBoolean(true);
        Thread sender = Thread.ofVirtual().start(() -> {
            for (int i = 0; i < 50; i++) lastTaken.set(writer.send(0, "chunk", DATA));
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> stalls() == 1);

        writer.abortIfBlocked(Duration.ofMillis(50));

        sender.join();
        // the sender is let go first, then the connection is closed outside the writer's lock: wait for the close
        await().atMost(Duration.ofSeconds(30)).untilTrue(aborted);
        assertThat(lastTaken).as("the events after the abort are not taken").isFalse();
        assertThat(writer.disconnected()).isTrue();
        writer.close();
        assertThat(disconnects.get()).isLessThanOrEqualTo(1);
        assertThat(gauge("baton.sse.buffered.bytes")).isZero();
    }

    @Test
    void a_failed_write_reports_the_disconnect_once_and_later_events_are_not_taken() {
        Client client = new Client();
        client.fail = true;
        client.release.countDown();
        AtomicInteger disconnects = new AtomicInteger();
        try (SseWriter writer = streams.open(client, disconnects::incrementAndGet, () -> {})) {
            writer.send(0, "chunk", DATA);
            await().atMost(Duration.ofSeconds(30)).until(writer::disconnected);
            assertThat(writer.send(0, "chunk", DATA)).isFalse();
        }
        assertThat(disconnects.get()).isEqualTo(1);
    }
}
