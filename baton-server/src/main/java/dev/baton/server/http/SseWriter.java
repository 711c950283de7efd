package dev.baton.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes Server-Sent Events to one response through a bounded outbound buffer. Event ids are monotonic per stream
 * (for Last-Event-ID).
 *
 * <p>A sender (the turn's thread) puts an event's bytes into the buffer and returns; this stream's own virtual thread
 * writes what is buffered to the connection, several events per flush when they come faster than the client takes
 * them. The buffer holds at most {@link SseStreams#bufferBytes()} bytes, counting those of the write in progress: when
 * the client stops reading, the sender waits for room, so the turn stalls instead of the server's memory growing (and
 * the turn stops reading its model in turn). A heartbeat comment is written only after a quiet heartbeat period, never
 * queued behind waiting events, so a client that went away is noticed even when the model sends nothing; the first
 * failed write reports the disconnect once.
 *
 * <p>When the turn is cancelled (its deadline, a cancel), {@link #abortIfBlocked} gives a blocked write a moment and
 * then closes the connection under it, so the turn ends at its deadline instead of when the connection's idle timeout
 * finally fails the write.
 */
public final class SseWriter implements AutoCloseable {
    private static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.UTF_8);

    private final OutputStream out;
    private final Runnable onDisconnect;
    private final Runnable abortConnection;
    private final SseStreams streams;
    private final int capacity;
    private final long heartbeatNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<byte[]> queued = new ArrayDeque<>();
    private final Thread drainer;
    /** Bytes queued plus those of the write in progress: never above {@link #capacity}. */
    private int buffered;
    /** Writes that returned, to tell a blocked write from a slow one. */
    private long writesDone;

    private long nextId = 1;
    private boolean stalled;
    private boolean closing;
    private volatile boolean disconnected;

    SseWriter(OutputStream out, SseStreams streams, Runnable onDisconnect, Runnable abortConnection) {
        this.out = out;
        this.streams = streams;
        this.onDisconnect = onDisconnect;
        this.abortConnection = abortConnection;
        this.capacity = streams.bufferBytes();
        this.heartbeatNanos = streams.heartbeat().toNanos();
        streams.opened();
        this.drainer = Thread.ofVirtual().name("sse-writer").start(this::drain);
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
        return send(0, type, json);
    }

    /**
     * Sends one event already rendered ({@code json} carries its {@code "type"}) under the id a turn's event log gave
     * it, so a client's {@code Last-Event-ID} names a position in that log; an id below 1 takes this stream's next.
     * Waits while the buffer is full.
     *
     * @return false when the event was not taken: the client went away or the stream is closed
     */
    public boolean send(long id, String type, String json) {
        lock.lock();
        try {
            long eventId = id >= 1 ? id : nextId;
            nextId = Math.max(nextId, eventId) + 1;
            return put(("id: " + eventId + "\nevent: " + type + "\ndata: " + json + "\n\n")
                    .getBytes(StandardCharsets.UTF_8));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends an event that is only {@code data} (no id, no name): OpenAI's streams are {@code data: {...}} lines ended by
     * {@code data: [DONE]}. Waits while the buffer is full.
     *
     * @return false when the event was not taken: the client went away or the stream is closed
     */
    public boolean sendData(String data) {
        lock.lock();
        try {
            return put(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        } finally {
            lock.unlock();
        }
    }

    /** Queues {@code bytes}, in slices when they do not fit at once; the caller holds the lock. */
    private boolean put(byte[] bytes) {
        int offset = 0;
        while (offset < bytes.length) {
            while (buffered >= capacity && !disconnected && !closing) {
                if (!stalled) {
                    stalled = true;
                    streams.stalled();
                }
                try {
                    changed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            if (disconnected || closing) return false;
            int n = Math.min(capacity - buffered, bytes.length - offset);
            queued.add(offset == 0 && n == bytes.length ? bytes : Arrays.copyOfRange(bytes, offset, offset + n));
            offset += n;
            grow(n);
            changed.signalAll();
        }
        return true;
    }

    public boolean disconnected() {
        return disconnected;
    }

    /**
     * The turn was cancelled: if no write finishes within {@code grace} while bytes wait (the client stopped reading),
     * closes the connection, which fails that write and lets the turn end now. Returns at once; the wait runs on its
     * own thread.
     */
    public void abortIfBlocked(Duration grace) {
        long before;
        lock.lock();
        try {
            if (buffered == 0 || disconnected) return;
            before = writesDone;
        } finally {
            lock.unlock();
        }
        Thread.ofVirtual().name("sse-abort").start(() -> {
            lock.lock();
            try {
                long deadline = System.nanoTime() + grace.toNanos();
                long left;
                while (writesDone == before
                        && buffered > 0
                        && !disconnected
                        && (left = deadline - System.nanoTime()) > 0) changed.awaitNanos(left);
                if (writesDone != before || buffered == 0 || disconnected) return;
                disconnected = true;
                changed.signalAll();
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            try {
                abortConnection.run();
            } catch (RuntimeException ignored) {
                // the connection is going away either way
            }
        });
    }

    /** This stream's thread: writes what is buffered, a heartbeat after a quiet period, until closed and drained. */
    private void drain() {
        try {
            while (true) {
                byte[][] batch;
                int bytes;
                lock.lock();
                try {
                    long quiet = heartbeatNanos;
                    while (queued.isEmpty() && !closing && !disconnected) {
                        quiet = changed.awaitNanos(quiet);
                        if (quiet <= 0 && queued.isEmpty() && !closing) {
                            queued.add(KEEPALIVE);
                            grow(KEEPALIVE.length);
                        }
                    }
                    if (disconnected || queued.isEmpty()) return;
                    batch = queued.toArray(new byte[0][]);
                    queued.clear();
                    bytes = buffered;
                } finally {
                    lock.unlock();
                }
                boolean ok = write(batch);
                lock.lock();
                try {
                    writesDone++;
                    grow(-bytes);
                    if (!ok) disconnected = true;
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
                if (!ok) {
                    onDisconnect.run();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.lock();
            try {
                queued.clear();
                grow(-buffered);
                disconnected |= !closing;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void grow(int bytes) {
        buffered += bytes;
        streams.buffered(bytes, buffered);
    }

    private boolean write(byte[][] batch) {
        try {
            for (byte[] b : batch) out.write(b);
            out.flush();
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * No more events: waits until what is buffered was written (or the connection failed: a client that stopped
     * reading holds this until the turn's cancel aborts it or the connection's idle timeout fails the write).
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closing) return;
            closing = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            drainer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            streams.closed();
        }
    }
}
