package dev.baton.store.jdbc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Writes of several threads committed together: each caller queues its write; the caller at the front of the queue
 * leads, takes this process's write lock, drains up to {@link #MAX_BATCH} queued writes and runs them in one
 * transaction (on SQLite {@link Transactions#commitTogether}, on PostgreSQL {@link
 * Transactions#commitTogetherOnPostgres}), then wakes every caller of the batch and the next front. A caller
 * whose write a leader took waits for that batch's end and returns how its own write ended: only after the COMMIT
 * that holds it succeeded.
 *
 * <p>No thread of its own: at concurrency 1 the caller leads its own batch of one at once, with no hand-off. Writes
 * queued while a batch commits form the next one, so the commits (and their WAL frames for shared pages) are shared
 * exactly when writers contend. Followers are woken by their own condition rather than by passing the write lock on
 * one by one, so a batch's callers resume together and the next leader does not wait behind them.
 */
final class GroupCommit {
    /** Bounds a batch's transaction, so the first writer of a burst is not held up by the whole burst. */
    static final int MAX_BATCH = 64;

    private final Transactions transactions;
    /** Runs a batch in one transaction, keeping each write's outcome in it; throws nothing. */
    private final Consumer<List<SharedWrite<?>>> commitTogether;

    private final ReentrantLock lock = new ReentrantLock();
    /** Writes not done yet, in arrival order; a running batch is at the front, its leader first. */
    private final ArrayDeque<SharedWrite<?>> queue = new ArrayDeque<>();

    GroupCommit(Transactions transactions, Consumer<List<SharedWrite<?>>> commitTogether) {
        this.transactions = transactions;
        this.commitTogether = commitTogether;
    }

    /** Runs the work in a transaction it may share with other threads' writes; see {@link Database#inSharedTransaction}. */
    <T> T commit(SqlWork<T> work, boolean oneStatement) {
        SharedWrite<T> write;
        lock.lock();
        try {
            write = new SharedWrite<>(work, lock.newCondition(), oneStatement);
            queue.addLast(write);
            awaitDoneOrFront(write);
        } finally {
            lock.unlock();
        }
        if (!write.done) lead(write);
        return write.outcome(transactions::failedStatement);
    }

    /** Writes queued and not done yet, a running batch included (for tests). */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private void awaitDoneOrFront(SharedWrite<?> write) {
        boolean interrupted = false;
        while (!write.done && queue.peekFirst() != write) {
            try {
                write.turn.await();
            } catch (InterruptedException e) {
                if (!write.taken) {
                    leave(write);
                    Thread.currentThread().interrupt();
                    throw new StoreException("interrupted waiting for the SQLite write lock", e);
                }
                // its transaction is running already: the caller learns how it ended, as without grouping
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void lead(SharedWrite<?> leader) {
        try {
            transactions.lockWrites();
        } catch (RuntimeException e) {
            lock.lock();
            try {
                leave(leader);
            } finally {
                lock.unlock();
            }
            throw e;
        }
        List<SharedWrite<?>> batch = List.of();
        try {
            batch = drain();
            commitTogether.accept(batch);
        } catch (RuntimeException | Error e) {
            // commitTogether keeps every failure in the writes; this is a defect, and no caller may be left waiting
            for (SharedWrite<?> w : batch) w.failWith(e);
            if (batch.isEmpty()) leader.failWith(e);
        } finally {
            transactions.unlockWrites();
            finish(leader, batch);
        }
    }

    private List<SharedWrite<?>> drain() {
        lock.lock();
        try {
            List<SharedWrite<?>> batch = new ArrayList<>(Math.min(queue.size(), MAX_BATCH));
            for (SharedWrite<?> w : queue) {
                if (batch.size() == MAX_BATCH) break;
                w.taken = true;
                batch.add(w);
            }
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /** Publishes the batch's outcomes and wakes its callers, then the next leader. */
    private void finish(SharedWrite<?> leader, List<SharedWrite<?>> batch) {
        lock.lock();
        try {
            if (batch.isEmpty()) queue.remove(leader);
            // the batch is the front of the queue: writes only join at the back, and only untaken ones leave early
            for (SharedWrite<?> w : batch) {
                queue.pollFirst();
                w.done = true;
                w.turn.signal();
            }
            leader.done = true;
            signalFront();
        } finally {
            lock.unlock();
        }
    }

    /** Takes a write that is not in a running batch out of the queue. Under the lock. */
    private void leave(SharedWrite<?> write) {
        boolean wasFront = queue.peekFirst() == write;
        queue.remove(write);
        if (wasFront) signalFront();
    }

    private void signalFront() {
        SharedWrite<?> next = queue.peekFirst();
        if (next != null) next.turn.signal();
    }
}
