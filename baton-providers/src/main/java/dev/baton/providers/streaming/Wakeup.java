package dev.baton.providers.streaming;

import java.util.concurrent.locks.LockSupport;

/**
 * Parks the thread of one call until its stream, its watch or its cancellation says there may be news. A signal is
 * never lost: one that comes before the thread parks makes the next {@link #await} return at once. A wake-up may be
 * for nothing (the thread then looks and waits again), so a signal costs only a flag and an unpark.
 */
final class Wakeup {

    private final Thread waiter;
    private volatile boolean signalled;

    Wakeup(Thread waiter) {
        this.waiter = waiter;
    }

    /** Safe from any thread. */
    void signal() {
        signalled = true;
        LockSupport.unpark(waiter);
    }

    /** Waits for a signal given since the last wait returned; only the waiter calls this. */
    void await() throws InterruptedException {
        while (!signalled) {
            LockSupport.park(this);
            if (Thread.interrupted()) throw new InterruptedException();
        }
        signalled = false;
    }
}
