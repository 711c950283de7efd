package dev.baton.simulator;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The requests the simulator received, oldest first: the last {@code keep} of them (a demo server runs for days, so
 * the recording is bounded), and how many arrived in all since the last clear, kept or not.
 */
final class RequestLog {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<RecordedRequest> requests = new ArrayDeque<>();
    /** Requests recorded since the last clear that no longer fit in {@link #requests}. */
    private long dropped;

    private int keep;

    RequestLog(int keep) {
        this.keep = keep;
    }

    /** Keeps only the last {@code count} requests from now on. */
    void keep(int count) {
        if (count < 0) throw new IllegalArgumentException("count must be >= 0");
        lock.lock();
        try {
            keep = count;
            trim();
        } finally {
            lock.unlock();
        }
    }

    void record(RecordedRequest request) {
        lock.lock();
        try {
            requests.addLast(request);
            trim();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    List<RecordedRequest> snapshot() {
        lock.lock();
        try {
            return List.copyOf(requests);
        } finally {
            lock.unlock();
        }
    }

    long count() {
        lock.lock();
        try {
            return dropped + requests.size();
        } finally {
            lock.unlock();
        }
    }

    void clear() {
        lock.lock();
        try {
            requests.clear();
            dropped = 0;
        } finally {
            lock.unlock();
        }
    }

    /** @throws IllegalStateException when it has not arrived within {@code timeout}, or is no longer kept */
    RecordedRequest await(int index, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (dropped + requests.size() <= index) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new IllegalStateException("request #" + index + " did not arrive within " + timeout
                            + " (received " + (dropped + requests.size()) + ")");
                }
                arrived.awaitNanos(remaining);
            }
            if (index < dropped) {
                throw new IllegalStateException("request #" + index
                        + " is no longer kept (the simulator keeps the last " + keep + "; see keepRequests)");
            }
            int i = 0;
            for (RecordedRequest r : requests) {
                if (i++ == index - dropped) return r;
            }
            throw new IllegalStateException("unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for request #" + index, e);
        } finally {
            lock.unlock();
        }
    }

    /** Called with the lock held. */
    private void trim() {
        while (requests.size() > keep) {
            requests.removeFirst();
            dropped++;
        }
    }
}
