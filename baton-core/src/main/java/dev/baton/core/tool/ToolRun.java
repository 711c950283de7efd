package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.id.CallKeys;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.trace.ToolSpan;
import dev.baton.core.trace.TurnTracing;
import dev.baton.core.turn.Cancellation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tool call running on its own virtual thread, with its timeout and its share of the turn's cancellation. A
 * transactional tool's call runs inside its scope's {@link TransactionalCalls}: once it is committing, the turn waits
 * for that outcome rather than giving up on the call (a timeout or a cancel then come too late), so what is recorded
 * is what the tool did.
 */
final class ToolRun {
    private static final Logger log = LoggerFactory.getLogger(ToolRun.class);

    static final ToolError CANCELLED = new ToolError("cancelled", "The turn was cancelled before the tool finished.");
    private static final ToolError UNEXPECTED = new ToolError("tool_failed", "The tool failed unexpectedly.");

    private final Tool tool;
    private final ToolCallRequest call;
    private final JsonNode arguments;
    private final String canonicalArguments;
    private final ToolCallScope scope;
    private final Duration timeout;
    private final Clock clock;
    private final CompletableFuture<ToolCallOutcome> future = new CompletableFuture<>();
    /** The tool's own outcome, whether or not the turn still waits for it ({@link #future} may have timed out). */
    private final CompletableFuture<ToolCallOutcome> settled = new CompletableFuture<>();
    /** Who decides the call's outcome: nobody yet, the tool (it is committing), or the turn (it gave up on it). */
    private final AtomicInteger decider = new AtomicInteger(UNDECIDED);

    private static final int UNDECIDED = 0;
    private static final int TOOL = 1;
    private static final int TURN = 2;
    private Thread thread;
    private ToolSpan span;
    private Instant startedAt;
    private long startedNanos;
    private ToolCallOutcome outcome;

    ToolRun(
            Tool tool,
            ToolCallRequest call,
            JsonNode arguments,
            String canonicalArguments,
            ToolCallScope scope,
            Duration timeout,
            Clock clock) {
        this.tool = tool;
        this.call = call;
        this.arguments = arguments;
        this.canonicalArguments = canonicalArguments;
        this.scope = scope;
        this.timeout = timeout;
        this.clock = clock;
    }

    /** Starts every run, then waits for each; a cancel of the turn stops the waiting and interrupts the tools. */
    static void runAll(List<ToolRun> runs, Cancellation cancellation) {
        runs.forEach(ToolRun::start);
        AutoCloseable registration = cancellation.onCancel(() -> runs.forEach(ToolRun::cancel));
        try {
            runs.forEach(ToolRun::await);
        } finally {
            try {
                registration.close();
            } catch (Exception ignored) {
                // unregistering a listener cannot fail in a way that matters here
            }
        }
    }

    ToolCallOutcome outcome() {
        return outcome;
    }

    private void start() {
        startedAt = clock.instant();
        startedNanos = System.nanoTime();
        ToolContext context = new ToolContext(
                scope.principal(),
                scope.sessionId(),
                startedAt.plus(timeout),
                scope.cancellation(),
                scope.agent() == null ? null : scope.agent().id(),
                scope.turnId() == null ? null : CallKeys.toolCall(scope.turnId(), call.id()));
        span = TurnTracing.current().startTool(call);
        thread = Thread.ofVirtual().name("tool-" + call.name()).unstarted(span.wrap(() -> {
            try {
                ToolCallOutcome outcome = invoke(context);
                settled.complete(outcome);
                future.complete(outcome);
            } catch (Throwable e) {
                // an Error escapes invoke: without this the turn would wait out the whole timeout for nothing
                settled.completeExceptionally(e);
                future.completeExceptionally(e);
            }
        }));
        future.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
        thread.start();
    }

    private void cancel() {
        // a call committing its outcome finishes: interrupting it could break its commit halfway
        if (giveUp() && future.completeExceptionally(new CancellationException("turn cancelled"))) {
            thread.interrupt();
        }
    }

    /** The turn gives up on the call; false when the tool is committing its outcome already. */
    private boolean giveUp() {
        return decider.compareAndSet(UNDECIDED, TURN) || decider.get() == TURN;
    }

    /** The tool is about to commit its outcome; false when the turn gave up on the call (its writes roll back). */
    private boolean claim() {
        return decider.compareAndSet(UNDECIDED, TOOL);
    }

    private void await() {
        awaitOutcome();
        span.end(outcome);
    }

    private void awaitOutcome() {
        try {
            outcome = future.join();
        } catch (CancellationException e) {
            outcome = failed(ToolCallState.CANCELLED, CANCELLED);
        } catch (CompletionException e) {
            if (e.getCause() instanceof TimeoutException && !giveUp()) {
                outcome = committedOutcome();
            } else if (e.getCause() instanceof TimeoutException) {
                // the tool may still be blocked; an interrupt is the only way to ask it to stop
                thread.interrupt();
                log.warn("tool {} timed out after {} ms", call.name(), timeout.toMillis());
                outcome = failed(
                        ToolCallState.TIMED_OUT,
                        new ToolError("timeout", "The tool did not finish within " + describe(timeout) + "."));
            } else if (e.getCause() instanceof CancellationException) {
                outcome = failed(ToolCallState.CANCELLED, CANCELLED);
            } else {
                log.warn("tool {} failed", call.name(), e.getCause());
                outcome = failed(ToolCallState.FAILED, UNEXPECTED);
            }
        }
    }

    /** What the tool committed, when its commit won the race with the timeout; waits for the commit to end. */
    private ToolCallOutcome committedOutcome() {
        try {
            return settled.join();
        } catch (CompletionException | CancellationException e) {
            log.warn("tool {} failed", call.name(), e.getCause());
            return failed(ToolCallState.FAILED, UNEXPECTED);
        }
    }

    /** Runs on the tool's virtual thread. */
    private ToolCallOutcome invoke(ToolContext context) {
        if (tool.definition().transactional() && scope.transactions() != TransactionalCalls.NONE) {
            return scope.transactions().commit(call, canonicalArguments, () -> run(context), this::claim);
        }
        return run(context);
    }

    private ToolCallOutcome run(ToolContext context) {
        try {
            JsonNode result = tool.execute(arguments, context);
            return finished(ToolCallState.SUCCEEDED, result == null ? NullNode.getInstance() : result, null);
        } catch (ToolException e) {
            String code = e.code() == null || e.code().isBlank() ? "tool_error" : e.code();
            String message = e.getMessage() == null ? "The tool refused the call." : e.getMessage();
            ToolError.AccountConnect connect = e instanceof ConnectRequiredException c ? c.connect() : null;
            return finished(ToolCallState.FAILED, null, new ToolError(code, message, connect));
        } catch (Exception e) {
            // the real cause stays in the log; the model (and so the user) only learns that the tool failed
            log.warn("tool {} failed unexpectedly", call.name(), e);
            return finished(ToolCallState.FAILED, null, UNEXPECTED);
        }
    }

    private ToolCallOutcome failed(ToolCallState state, ToolError error) {
        return finished(state, null, error);
    }

    private ToolCallOutcome finished(ToolCallState state, JsonNode result, ToolError error) {
        // every shape of result, and every error, is bounded here: before it is stored, streamed or sent anywhere
        if (result != null) result = ToolResultBound.apply(result);
        if (error != null) error = new ToolError(error.code(), ToolResultBound.apply(error.message()), error.connect());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
        return new ToolCallOutcome(call, state, result, error, startedAt, clock.instant(), millis);
    }

    private static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
