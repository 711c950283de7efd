package dev.baton.runtime.turn;

import dev.baton.core.trace.AgentSpan;
import dev.baton.core.trace.TurnTracing;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnRunner;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs a turn for a front door: one turn per session at a time, the whole request bounded by the agent's
 * requestTimeout (a timed-out turn is cancelled and reported as {@code request_timeout}), and the turn's structured
 * log events ({@link TurnLogLines}) with ids, model, tokens, latency and tools — never the message contents.
 */
public final class TurnDispatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger("baton.turn");

    private final TurnRunner runner;
    private final RunningTurns running;
    private final TurnObserver observer;
    private final TurnTracing tracing;
    private final ScheduledThreadPoolExecutor timers = deadlineTimer();

    public TurnDispatcher(TurnRunner runner, RunningTurns running) {
        this(runner, running, TurnObserver.NONE);
    }

    /** @param observer hears of every finished turn (metrics) */
    public TurnDispatcher(TurnRunner runner, RunningTurns running, TurnObserver observer) {
        this(runner, running, observer, TurnTracing.OFF);
    }

    /** @param tracing traces every turn ({@link TurnTracing#OFF} for none) */
    public TurnDispatcher(TurnRunner runner, RunningTurns running, TurnObserver observer, TurnTracing tracing) {
        this.runner = runner;
        this.running = running;
        this.observer = observer;
        this.tracing = tracing;
    }

    /**
     * Takes the session for one turn: registers its cancellation switch (one turn per session, on any instance when
     * the locks are shared) and starts the request's deadline, which cancels the turn once {@code timeout} has passed.
     * Close it when the turn is over, whatever happened: that frees the session and drops the deadline.
     *
     * <pre>{@code
     * try (TurnDispatcher.SessionLock lock = dispatcher.lock(session.id(), timeout)) {
     *     TurnOutcome outcome = dispatcher.run(lock, new TurnRequest(..., lock.cancellation(), ...), sink);
     * }
     * }</pre>
     *
     * @throws RefusalException {@link Refusal.SessionBusy} when the session's turn is running
     */
    public SessionLock lock(String sessionId, Duration timeout) {
        return new SessionLock(sessionId, timeout);
    }

    /** See {@link RunningTurns#breakHeldBy}: only for a holder known to be dead. */
    public boolean breakLockHeldBy(String sessionId, String holder) {
        return running.breakHeldBy(sessionId, holder);
    }

    /**
     * Runs {@code req} under {@code lock}, which must be the one taken for its session.
     *
     * @param sink hears the turn's events in order, a deadline's cancel reported as {@code request_timeout}
     */
    public TurnOutcome run(SessionLock lock, TurnRequest req, Consumer<TurnEvent> sink) {
        if (!lock.sessionId.equals(req.session().id()))
            throw new IllegalArgumentException("the lock is not the request's session's");
        try (var user = MDC.putCloseable("userId", req.principal().userId());
                var session = MDC.putCloseable("sessionId", req.session().id())) {
            return runLogged(lock, req, sink);
        }
    }

    private TurnOutcome runLogged(SessionLock lock, TurnRequest req, Consumer<TurnEvent> sink) {
        AgentSpan span = tracing.startAgent(req);
        TurnOutcome ran;
        try (Scope ignored = span.makeCurrent()) {
            TurnLogLines.started(req);
            Consumer<TurnEvent> logged = TurnLogLines.watching(sink);
            ran = runner.run(req, event -> logged.accept(lock.rewriteTimeout(event)));
        } catch (RuntimeException e) {
            span.end(e);
            throw e;
        }
        // the outcome says what the stream said: a turn stopped by its deadline timed out, it was not cancelled
        TurnOutcome outcome = new TurnOutcome(
                ran.userMessage(),
                ran.assistantMessage(),
                ran.toolCalls(),
                ran.usage(),
                ran.model(),
                lock.rewriteTimeout(ran.terminal()));
        span.end(outcome);
        long nanos = System.nanoTime() - lock.startedNanos;
        String status = status(outcome);
        // under the turn's span: the line carries its trace and span ids
        try (Scope ignored = span.makeCurrent()) {
            TurnLogLines.finished(req, outcome, status, nanos / 1_000_000);
        }
        observe(req, outcome, status, nanos);
        return outcome;
    }

    /**
     * A session held for one turn, with the turn's cancellation switch and request deadline. Closing it frees the
     * session (on every instance, when shared) and drops the deadline; closing twice is harmless.
     */
    public final class SessionLock implements AutoCloseable {
        private final String sessionId;
        private final Duration timeout;
        private final Cancellation cancellation;
        private final AtomicBoolean timedOut = new AtomicBoolean();
        private final ScheduledFuture<?> deadline;
        /** The turn's latency counts from here: what the turn does before it reaches the model is part of it. */
        private final long startedNanos;

        private SessionLock(String sessionId, Duration timeout) {
            this.sessionId = sessionId;
            this.timeout = timeout;
            this.cancellation = running.begin(sessionId, timeout);
            this.deadline = timers.schedule(
                    () -> {
                        timedOut.set(true);
                        cancellation.cancel();
                    },
                    timeout.toMillis(),
                    TimeUnit.MILLISECONDS);
            this.startedNanos = System.nanoTime();
        }

        /** Stops the turn (a client that went away, a user's stop button, the deadline). */
        public Cancellation cancellation() {
            return cancellation;
        }

        private TurnEvent rewriteTimeout(TurnEvent event) {
            if (event instanceof TurnEvent.Failed f && f.code().equals("cancelled") && timedOut.get()) {
                return TurnEvent.Failed.requestTimeout(timeout);
            }
            return event;
        }

        @Override
        public void close() {
            deadline.cancel(false);
            running.end(sessionId, cancellation);
        }
    }

    /** "ok", "awaiting_approval", or the error code the client was sent. */
    private static String status(TurnOutcome outcome) {
        if (outcome.terminal() instanceof TurnEvent.AwaitingApproval) return "awaiting_approval";
        return outcome.terminal() instanceof TurnEvent.Failed f ? f.code() : "ok";
    }

    private void observe(TurnRequest req, TurnOutcome outcome, String status, long nanos) {
        try {
            observer.finished(req, outcome, status, nanos);
        } catch (RuntimeException e) {
            // metrics must never fail a turn that succeeded
            log.warn("turn observer failed", e);
        }
    }

    /** How many request deadlines wait to fire: the turns still running (a finished turn's deadline is dropped). */
    int pendingDeadlines() {
        return timers.getQueue().size();
    }

    /**
     * One timer thread for every turn's deadline. Nearly every turn ends before its deadline and cancels it; the
     * cancelled task must leave the queue then, not when its delay runs out, or the queue holds a task (and the
     * turn's cancellation with everything it reaches) for every turn of the last requestTimeout.
     */
    private static ScheduledThreadPoolExecutor deadlineTimer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "turn-timeouts");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
