package dev.baton.runtime.durable;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A count of the idempotency keys settled on this instance, which retries waiting for a key wait on: a retry reads
 * the count, looks at its key, and waits until the count moves (or its own time to look again comes). A lock, not a
 * monitor, so a waiting virtual thread does not pin its carrier.
 */
final class KeySettlements {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition moved = lock.newCondition();
    private long count;

    long current() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    void signal() {
        lock.lock();
        try {
            count++;
            moved.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the count is past {@code seen}, at most {@code nanos}.
     *
     * @return false when the thread was interrupted (its interrupt flag is set again)
     */
    boolean awaitAfter(long seen, long nanos) {
        lock.lock();
        try {
            long left = nanos;
            while (count == seen && left > 0) left = moved.awaitNanos(left);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }
}
