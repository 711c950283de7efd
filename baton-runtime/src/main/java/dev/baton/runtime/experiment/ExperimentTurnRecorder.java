package dev.baton.runtime.experiment;

import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.id.Ids;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.runtime.turn.TurnObserver;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records each finished turn of a session in an experiment (its arm, status and latency), off the turn's thread so
 * the answer never waits on it. Turns of agents no experiment routes to are skipped without touching the database.
 * At most {@value #IN_FLIGHT} records are written at once; beyond that a turn is counted as dropped rather than queued
 * without bound.
 */
public final class ExperimentTurnRecorder implements TurnObserver, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ExperimentTurnRecorder.class);
    static final int IN_FLIGHT = 64;
    /** The tool call states that count as tool errors (as in the stored metrics). */
    static final Set<ToolCallState> TOOL_ERRORS = EnumSet.of(
            ToolCallState.FAILED, ToolCallState.INVALID_ARGUMENTS, ToolCallState.TIMED_OUT, ToolCallState.DENIED);

    private final Experiments experiments;
    private final Clock clock;
    private final ExecutorService writers = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("experiment-turn-", 0).factory());
    private final Semaphore slots = new Semaphore(IN_FLIGHT);
    private final AtomicLong dropped = new AtomicLong();

    public ExperimentTurnRecorder(Experiments experiments, Clock clock) {
        this.experiments = experiments;
        this.clock = clock;
    }

    @Override
    public void finished(TurnRequest request, TurnOutcome outcome, String status, long nanos) {
        if (!experiments.mayRoute(request.agent().id())) return;
        if (!slots.tryAcquire()) {
            if (dropped.incrementAndGet() % 100 == 1)
                log.warn("experiment turn records dropped under load: {} so far", dropped.get());
            return;
        }
        try {
            writers.execute(() -> {
                try {
                    record(request, outcome, status, nanos);
                } catch (RuntimeException e) {
                    log.warn(
                            "turn of session {} not recorded for its experiment: {}",
                            request.session().id(),
                            e.toString());
                } finally {
                    slots.release();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            slots.release();
        }
    }

    private void record(TurnRequest request, TurnOutcome outcome, String status, long nanos) {
        var arm = experiments.store().sessionArm(request.session().id());
        if (arm.isEmpty()) return;
        String turnId = outcome.userMessage() != null ? outcome.userMessage().id() : Ids.newId();
        experiments
                .store()
                .recordTurn(arm.get(), turnId, status, TimeUnit.NANOSECONDS.toMillis(nanos), clock.instant());
        int failedTools = (int) outcome.toolCalls().stream()
                .filter(c -> TOOL_ERRORS.contains(c.state()))
                .count();
        experiments
                .listener()
                .turnFinished(
                        arm.get().experimentId(),
                        arm.get().arm(),
                        status,
                        nanos,
                        outcome.usage().costUsd(),
                        outcome.toolCalls().size(),
                        failedTools);
    }

    /** Turns not recorded because too many records were being written at once. */
    public long dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        writers.shutdown();
        try {
            // the records under way are short writes: let them finish
            writers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
