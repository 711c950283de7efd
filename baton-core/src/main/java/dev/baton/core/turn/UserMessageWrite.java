package dev.baton.core.turn;

import dev.baton.core.context.RecentHistory;
import dev.baton.core.conversation.Message;
import dev.baton.core.trace.TurnTracing;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.slf4j.MDC;

/**
 * A new turn's user message being stored on a thread of its own while the turn builds its context and sends its first
 * model call: the write's time no longer comes before the model is asked. The order a user can see does not change:
 * the turn {@linkplain #awaitStored waits for the write} before it uses anything of that call — its first delta, its
 * reply, its failure — and before it ends any other way, so no answer is shown, stored or acted on (no tool runs) for
 * a message that is not stored. Only a turn without a lease takes this path: a leased turn's lease is written with
 * its message, and a model call must not run for a turn another instance could take over.
 *
 * <p>When the write fails, or stores the message after another one the turn did not know of, the call is given up
 * ({@link Voided}, thrown where the turn waits: its exchange is aborted) and the turn starts over without it, as it
 * did before this class: a model call made in vain, which only a database failure, a paused turn superseded or a
 * message from elsewhere in between cause.
 */
final class UserMessageWrite {

    private final FutureTask<TurnJournal.Opened> task;
    private final RecentHistory history;
    private Message stored;

    private UserMessageWrite(FutureTask<TurnJournal.Opened> task, RecentHistory history) {
        this.task = task;
        this.history = history;
    }

    /**
     * Starts {@code write} on a virtual thread, in the caller's logging and tracing context.
     *
     * @param history the history the turn built its context from: the stored message must come right after it
     */
    static UserMessageWrite start(Supplier<TurnJournal.Opened> write, RecentHistory history) {
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        FutureTask<TurnJournal.Opened> task = new FutureTask<>(() -> {
            if (mdc != null) MDC.setContextMap(mdc);
            return write.get();
        });
        Thread.ofVirtual().name("user-message-write").start(TurnTracing.propagate(task));
        return new UserMessageWrite(task, history);
    }

    /**
     * The stored message, once the write is done; waits for it (not interruptibly: the write is bounded by the
     * database's own timeouts, and the turn must know whether its message is stored).
     *
     * @throws Voided when the turn must not go on with what it did since it started the write
     */
    Message awaitStored() {
        if (stored != null) return stored;
        TurnJournal.Opened opened = outcome();
        if (!history.precedes(opened.user())) throw new Voided(opened.user(), null);
        stored = opened.user();
        return stored;
    }

    private TurnJournal.Opened outcome() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException failure) throw new Voided(null, failure);
                    if (cause instanceof Error error) throw error;
                    throw new IllegalStateException(cause);
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /**
     * The turn's work since the write started is void: the message was not stored ({@code writeFailure}), or it was
     * stored after a message the turn's history lacks ({@code stored}). Thrown on the turn's thread where it waits;
     * the turn catches it where it started the write.
     */
    static final class Voided extends RuntimeException {
        private final transient Message stored;
        private final RuntimeException writeFailure;

        Voided(Message stored, RuntimeException writeFailure) {
            super(
                    "the user message's write " + (writeFailure == null ? "came after another message" : "failed"),
                    writeFailure,
                    false,
                    false);
            this.stored = stored;
            this.writeFailure = writeFailure;
        }

        /** The stored message, when it was stored after another one; null when the write failed. */
        Message stored() {
            return stored;
        }

        /** Why the write failed; null when the message was stored. */
        RuntimeException writeFailure() {
            return writeFailure;
        }
    }
}
