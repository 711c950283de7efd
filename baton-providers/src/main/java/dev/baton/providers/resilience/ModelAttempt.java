package dev.baton.providers.resilience;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One call to a gateway under a time-to-first-token limit on top of its overall limit; the first delta of any kind
 * (text, thinking, a piece of a tool call) meets it. The call runs on a
 * cancellation of its own, linked to the turn's, so that a silent provider can be aborted (the gateway closes the
 * connection) without cancelling the turn; the abort is then reported as a {@code TIMEOUT}.
 */
final class ModelAttempt {
    private static final int WAITING = 0;
    private static final int STREAMING = 1;
    private static final int SILENT_TOO_LONG = 2;

    private final ModelGateway gateway;

    ModelAttempt(ModelGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * @param overall the whole attempt's limit, passed to the gateway as the request's timeout
     * @param textSent set once a non-empty text delta has been handed to {@code onDelta}: from then on the client
     *     has seen part of this answer and nothing may be retried. Tool-call deltas leave it unset: the client
     *     does not see them
     */
    ModelReply run(
            ModelRequest request,
            Duration firstToken,
            Duration overall,
            Consumer<ModelDelta> onDelta,
            AtomicBoolean textSent) {
        Cancellation attemptCancellation = new Cancellation();
        AutoCloseable link = request.cancellation().onCancel(attemptCancellation::cancel);
        AtomicInteger phase = new AtomicInteger(WAITING);
        // cancelled (and so dropped from the timer's queue) as soon as the call ends, which is nearly always first
        ScheduledFuture<?> watch = Watchdogs.after(firstToken, () -> {
            if (phase.compareAndSet(WAITING, SILENT_TOO_LONG)) {
                attemptCancellation.cancel();
            }
        });
        ModelRequest attempt = request.attempt(request.model(), overall, attemptCancellation);
        try {
            return gateway.stream(attempt, delta -> {
                // a delta that races the first-token timer loses: the attempt is being aborted and may be retried,
                // so nothing of it may reach the client
                int now = phase.get();
                if (now == SILENT_TOO_LONG || now == WAITING && !phase.compareAndSet(WAITING, STREAMING)) {
                    return;
                }
                if (delta instanceof ModelDelta.Text text
                        && text.content() != null
                        && !text.content().isEmpty()) {
                    textSent.set(true);
                }
                onDelta.accept(delta);
            });
        } catch (ModelFailure failure) {
            if (phase.get() == SILENT_TOO_LONG && !request.cancellation().isCancelled()) {
                throw new ModelFailure(
                        ModelFailure.Kind.TIMEOUT,
                        gateway.provider() + " sent no first token within " + firstToken,
                        null,
                        failure);
            }
            throw failure;
        } finally {
            watch.cancel(false);
            try {
                link.close();
            } catch (Exception ignored) {
                // unregistering a cancel listener has nothing to fail on
            }
        }
    }
}
