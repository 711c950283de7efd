package dev.baton.providers.streaming;

import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import dev.baton.providers.resilience.Watchdogs;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * One model call as a blocking call, in one of two modes. Pushed ({@link #await}): whatever the provider's stream
 * yields arrives on HTTP threads and is queued (at most {@value #CAPACITY} pieces: the stream is read as the queue
 * makes room, see {@link #whenRoom}); the calling (virtual) thread drains the queue in order until the answer is
 * complete. Pulled ({@link #pull}): the calling thread reads the stream itself, piece by piece, and parks while the
 * connection has nothing for it; no piece passes from thread to thread. The call owns what every gateway must get
 * right the same way: the deadline, the request's cancellation (which aborts the exchange and returns at once,
 * whatever the provider is doing), aborting the exchange when the call ends early, and turning each way of ending
 * into a {@link ModelFailure}.
 *
 * @param <T> what the provider's stream yields: a line of its wire, or an already parsed event
 */
public final class GatewayCall<T> {

    private sealed interface Signal<T> {
        record Next<T>(T piece) implements Signal<T> {}

        record Failed<T>(Throwable error) implements Signal<T> {}

        record Ended<T>() implements Signal<T> {}

        record Cancelled<T>() implements Signal<T> {}

        /** The call's watch fired: the limit may have passed (unless the caller's holding time moved it on). */
        record Due<T>() implements Signal<T> {}
    }

    /**
     * How many pieces may wait for the calling thread before the stream is read no further: when the calling thread is
     * held up (a turn whose client stopped reading), the provider's stream stays in its socket instead of piling up
     * here.
     */
    static final int CAPACITY = 64;

    private final Cancellation cancellation;
    private final Duration limit;
    private final long deadline;
    private final FailureClassifier failures;
    private final Runnable abort;
    private final BlockingQueue<Signal<T>> signals = new LinkedBlockingQueue<>();
    /** How to read more of the stream, held while the queue is full. */
    private final AtomicReference<Runnable> paused = new AtomicReference<>();

    private GatewayCall(Cancellation cancellation, Duration limit, FailureClassifier failures, Runnable abort) {
        this.cancellation = cancellation;
        this.limit = limit;
        this.deadline = System.nanoTime() + limit.toNanos();
        this.failures = failures;
        this.abort = abort;
    }

    /**
     * Starts the clock of a call.
     *
     * @param limit the whole call's time limit, from now
     * @param abort closes the call's exchange; run on cancellation and when the call ends early
     * @throws ModelFailure {@code CANCELLED} when the request was cancelled already
     */
    public static <T> GatewayCall<T> open(
            ModelRequest request, Duration limit, FailureClassifier failures, Runnable abort) {
        Objects.requireNonNull(abort, "abort");
        if (request.cancellation().isCancelled()) {
            throw failures.cancelled();
        }
        return new GatewayCall<>(request.cancellation(), limit, failures, abort);
    }

    /** The stream yielded {@code piece}. Safe from any thread. */
    public void next(T piece) {
        signals.add(new Signal.Next<>(piece));
    }

    /**
     * Runs {@code readMore} (asking the stream for more) now when the queue has room, else once the calling thread has
     * taken enough pieces. Safe from any thread.
     */
    public void whenRoom(Runnable readMore) {
        if (signals.size() < CAPACITY) {
            readMore.run();
            return;
        }
        paused.set(readMore);
        // the calling thread may have made room since the size was read
        if (signals.size() < CAPACITY) resume();
    }

    private void resume() {
        Runnable readMore = paused.getAndSet(null);
        if (readMore != null) readMore.run();
    }

    /** The stream failed after the request was sent. Safe from any thread. */
    public void fail(Throwable error) {
        signals.add(new Signal.Failed<>(error));
    }

    /** The stream ended; unless {@link #await}'s handler already had the whole answer, it was cut short. */
    public void end() {
        signals.add(new Signal.Ended<>());
    }

    /** Whether the request's cancellation fired. */
    public boolean isCancelled() {
        return cancellation.isCancelled();
    }

    /**
     * Sends the request and blocks until the answer is complete.
     *
     * @param send starts the exchange, whose stream reports to this call's {@link #next}, {@link #fail} and
     *     {@link #end}; what it throws propagates (the exchange is aborted)
     * @param onPiece handles each piece on the calling thread, returning the answer once it is complete; what
     *     it throws aborts the call and propagates unchanged
     * @throws ModelFailure for every failure of the provider, {@code CANCELLED} when the request's cancellation
     *     fired, {@code TIMEOUT} when the limit passed
     */
    public <R> R await(Runnable send, Function<T, Optional<R>> onPiece) {
        boolean completed = false;
        AutoCloseable registration = cancellation.onCancel(() -> {
            abort.run();
            signals.add(new Signal.Cancelled<>());
        });
        // One watch for the whole call rather than a timed wait for each piece: a streamed answer is dozens of
        // pieces, and every timed wait of a virtual thread schedules and cancels a timer of its own
        ScheduledFuture<?> watch = null;
        try {
            send.run();
            long due = deadline;
            watch = watch(due);
            while (true) {
                var signal = signals.take();
                if (paused.get() != null && signals.size() < CAPACITY) resume();
                switch (signal) {
                    case Signal.Next<T> next -> {
                        long handing = System.nanoTime();
                        var answer = onPiece.apply(next.piece());
                        // the time the caller holds a piece is not the provider's: a turn held up by its client
                        // must not make the model look slow (a timeout counts against the provider's breaker)
                        due += System.nanoTime() - handing;
                        if (answer.isPresent()) {
                            completed = true;
                            return answer.get();
                        }
                    }
                    case Signal.Due<T> d -> {
                        if (due - System.nanoTime() <= 0) throw failures.timedOut(limit);
                        watch = watch(due);
                    }
                    case Signal.Failed<T> f ->
                        throw cancellation.isCancelled() ? failures.cancelled() : failures.classify(f.error());
                    case Signal.Ended<T> e -> throw failures.cutShort();
                    case Signal.Cancelled<T> c -> throw failures.cancelled();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failures.cancelled();
        } finally {
            if (watch != null) watch.cancel(false);
            if (!completed) {
                abort.run();
            }
            unregister(registration);
        }
    }

    /**
     * Sends the request and reads the answer on the calling thread until it is complete. The stream is read only when
     * this thread asks for its next piece, so a caller held up (by {@code onPiece}) leaves the rest of the answer in
     * the socket. Deadline, cancellation and failures as in {@link #await}; a call that ends without its answer aborts
     * the exchange, and either way the stream is {@linkplain PulledStream#finish finished}.
     *
     * @param send starts the exchange; what it throws propagates (the exchange is aborted)
     * @param stream what the calling thread reads the pieces from
     * @param onPiece handles each piece, returning the answer once it is complete; what it throws aborts the call and
     *     propagates unchanged
     */
    public <R> R pull(Runnable send, PulledStream<T> stream, Function<T, Optional<R>> onPiece) {
        var wakeup = new Wakeup(Thread.currentThread());
        Runnable wake = wakeup::signal;
        boolean completed = false;
        AutoCloseable registration = cancellation.onCancel(() -> {
            abort.run();
            wake.run();
        });
        // one watch for the whole call, as in await(): it wakes the thread, which then looks at the time itself
        ScheduledFuture<?> watch = null;
        try {
            send.run();
            long due = deadline;
            watch = Watchdogs.after(Duration.ofNanos(due - System.nanoTime()), wake);
            while (true) {
                if (cancellation.isCancelled()) throw failures.cancelled();
                if (due - System.nanoTime() <= 0) throw failures.timedOut(limit);
                T piece = poll(stream);
                if (piece == null) {
                    // the watch fired for a limit the caller's holding time has moved on since
                    if (watch.isDone()) watch = Watchdogs.after(Duration.ofNanos(due - System.nanoTime()), wake);
                    stream.demand(wake);
                    wakeup.await();
                    continue;
                }
                long handing = System.nanoTime();
                var answer = onPiece.apply(piece);
                // as in await(): the time the caller holds a piece is not the provider's
                due += System.nanoTime() - handing;
                if (answer.isPresent()) {
                    completed = true;
                    return answer.get();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failures.cancelled();
        } finally {
            if (watch != null) watch.cancel(false);
            if (!completed) abort.run();
            stream.finish(completed);
            unregister(registration);
        }
    }

    private T poll(PulledStream<T> stream) {
        try {
            return stream.poll();
        } catch (ModelFailure failure) {
            throw failure;
        } catch (Exception e) {
            throw cancellation.isCancelled() ? failures.cancelled() : failures.classify(e);
        }
    }

    /** Wakes the calling thread once {@code due} (a {@link System#nanoTime()} reading) has come. */
    private ScheduledFuture<?> watch(long due) {
        return Watchdogs.after(Duration.ofNanos(due - System.nanoTime()), () -> signals.add(new Signal.Due<>()));
    }

    private static void unregister(AutoCloseable registration) {
        try {
            registration.close();
        } catch (Exception e) {
            // Cancellation's handle only removes a listener from a list and cannot fail
            throw new IllegalStateException(e);
        }
    }
}
