package dev.baton.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes Server-Sent Events to one response. Event ids are monotonic per stream (for Last-Event-ID).
 * A heartbeat comment is written while the turn is quiet, so a client that went away is noticed even when
 * the model sends nothing; the first failed write reports the disconnect once.
 *
 * <p>A client that stops reading without closing its connection makes a write block once the socket's buffers are
 * full. When the turn is cancelled (its deadline, a cancel), {@link #abortIfBlocked} gives a blocked write a moment and
 * then closes the connection under it, so the turn ends at its deadline instead of when the connection's idle timeout
 * finally fails the write.
 */
public final class SseWriter implements AutoCloseable {

    private final OutputStream out;
    private final Runnable onDisconnect;
    private final Runnable abortConnection;
    private final ReentrantLock lock = new ReentrantLock();
    private final Thread heartbeat;
    private long nextId = 1;
    private volatile boolean disconnected;
    private volatile boolean closed;

    public SseWriter(OutputStream out, Duration heartbeatEvery, Runnable onDisconnect) {
        this(out, heartbeatEvery, onDisconnect, () -> {});
    }

    /** @param abortConnection closes the connection under a blocked write (see {@link #abortIfBlocked}) */
    public SseWriter(OutputStream out, Duration heartbeatEvery, Runnable onDisconnect, Runnable abortConnection) {
        this.out = out;
        this.onDisconnect = onDisconnect;
        this.abortConnection = abortConnection;
        this.heartbeat = Thread.ofVirtual().name("sse-heartbeat").start(() -> beat(heartbeatEvery));
    }

    /** Sends one event; {@code data} gets a "type" field equal to the event name first. */
    public boolean send(String type, ObjectNode data) {
        ObjectNode payload = Json.MAPPER.createObjectNode().put("type", type);
        payload.setAll(data);
        return sendAsIs(type, payload);
    }

    /** Sends one event with {@code data} exactly as given: for wires whose events carry no "type" field. */
    public boolean sendAsIs(String type, ObjectNode payload) {
        String json;
        try {
            json = Json.MAPPER.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        lock.lock();
        try {
            long id = nextId++;
            return write("id: " + id + "\nevent: " + type + "\ndata: " + json + "\n\n");
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends one event already rendered ({@code json} carries its {@code "type"}) under the id a turn's event log gave
     * it, so a client's {@code Last-Event-ID} names a position in that log; an id below 1 takes this stream's next.
     */
    public boolean send(long id, String type, String json) {
        lock.lock();
        try {
            long eventId = id >= 1 ? id : nextId;
            nextId = Math.max(nextId, eventId) + 1;
            return write("id: " + eventId + "\nevent: " + type + "\ndata: " + json + "\n\n");
        } finally {
            lock.unlock();
        }
    }

    public boolean disconnected() {
        return disconnected;
    }

    /**
     * The turn was cancelled: if a write is still blocked after {@code grace} (the client stopped reading), closes the
     * connection, which fails that write and lets the turn end now. Returns at once; the wait runs on its own thread.
     */
    public void abortIfBlocked(Duration grace) {
        Thread.ofVirtual().name("sse-abort").start(() -> {
            try {
                if (lock.tryLock(grace.toNanos(), TimeUnit.NANOSECONDS)) {
                    lock.unlock();
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            disconnected = true;
            try {
                abortConnection.run();
            } catch (RuntimeException ignored) {
                // the connection is going away either way
            }
        });
    }

    private void beat(Duration every) {
        while (!closed && !disconnected) {
            try {
                Thread.sleep(every); // pacing only: the heartbeat's purpose is to write periodically
            } catch (InterruptedException e) {
                return;
            }
            lock.lock();
            try {
                if (!closed) write(": keepalive\n\n");
            } finally {
                lock.unlock();
            }
        }
    }

    private boolean write(String text) {
        if (disconnected) return false;
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return true;
        } catch (IOException | RuntimeException e) {
            disconnected = true;
            onDisconnect.run();
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
        heartbeat.interrupt();
    }
}
