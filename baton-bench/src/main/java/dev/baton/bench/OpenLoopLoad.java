package dev.baton.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Turns started at a fixed rate whatever the server does (an open loop, as real users arrive), each timed from
 * when it was <em>due</em>, not from when it got going: a server that falls behind shows it in the latencies instead
 * of slowing the load down (the coordinated omission of a closed loop of clients).
 *
 * <p>Each turn borrows a conversation of its own from a pool, so two turns never queue on one session's lock; a
 * turn due while every conversation is busy counts as failed.
 */
final class OpenLoopLoad {

    /**
     * One step's outcome.
     *
     * @param ratePerSecond the rate asked for
     * @param started turns started; failed of those, whatever the reason
     * @param latenciesNanos each finished turn, from when it was due to its answer
     */
    record Step(int ratePerSecond, long started, long failed, List<Long> latenciesNanos) {
        long p50() {
            return StalledStreams.percentile(latenciesNanos, 50);
        }

        long p99() {
            return StalledStreams.percentile(latenciesNanos, 99);
        }

        /** Sustained: every turn answered, and the 99th percentile under {@code boundNanos}. */
        boolean sustained(long boundNanos) {
            return failed == 0 && !latenciesNanos.isEmpty() && p99() < boundNanos;
        }
    }

    private final BlockingQueue<String> conversations;
    private final Consumer<String> turn;

    /**
     * @param conversations the conversations turns run in; more than (rate × the slowest turn's seconds)
     * @param turn runs one whole turn in the conversation given, throwing when it did not answer
     */
    OpenLoopLoad(List<String> conversations, Consumer<String> turn) {
        this.conversations = new ArrayBlockingQueue<>(conversations.size(), false, conversations);
        this.turn = turn;
    }

    /** Starts {@code rate} turns a second for {@code seconds}, then waits for the last of them. */
    Step run(int rate, int seconds) throws InterruptedException {
        long interval = 1_000_000_000L / rate;
        long total = (long) rate * seconds;
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>((int) total));
        AtomicLong failed = new AtomicLong();
        List<Thread> running = new ArrayList<>((int) total);
        long origin = System.nanoTime();
        for (long i = 0; i < total; i++) {
            long due = origin + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) LockSupport.parkNanos(wait);
            String conversation = conversations.poll();
            if (conversation == null) {
                failed.incrementAndGet();
                continue;
            }
            running.add(Thread.ofVirtual().start(() -> {
                try {
                    turn.accept(conversation);
                    latencies.add(System.nanoTime() - due);
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                } finally {
                    conversations.add(conversation);
                }
            }));
        }
        for (Thread t : running) {
            if (!t.join(java.time.Duration.ofMinutes(2))) failed.incrementAndGet();
        }
        return new Step(rate, total, failed.get(), List.copyOf(latencies));
    }

    static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
