package dev.baton.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes Server-Sent Events to one response. Event ids are monotonic per stream (for Last-Event-ID).
 * A heartbeat comment is written while the turn is quiet, so a client that went away is noticed even when
 * the model sends nothing; the first failed write reports the disconnect once.
 */
public final class SseWriter implements AutoCloseable {

    private final OutputStream out;
    private final Runnable onDisconnect;
    private final ReentrantLock lock = new ReentrantLock();
    private final Thread heartbeat;
    private long nextId = 1;
    private volatile boolean disconnected;
    private volatile boolean closed;

    public SseWriter(OutputStream out, Duration heartbeatEvery, Runnable onDisconnect) {
        this.out = out;
        this.onDisconnect = onDisconnect;
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
