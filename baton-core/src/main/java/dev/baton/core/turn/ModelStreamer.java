package dev.baton.core.turn;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.trace.ChatSpan;
import dev.baton.core.trace.TurnTracing;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Makes one streaming model call and turns its deltas into turn events. The gateway runs on a virtual thread of its
 * own and hands deltas over a queue, so the turn's event sink is only ever called from the thread running the turn,
 * in order, whatever thread the provider's client delivers on. The queue is bounded: a turn held up by its client (an
 * SSE stream whose client stopped reading) holds up the gateway, which stops reading the provider's stream, instead of
 * the whole answer piling up here.
 */
final class ModelStreamer {
    /** How long past the call's own timeout we wait for a gateway that fails to enforce it. */
    private static final Duration GRACE = Duration.ofSeconds(5);

    private static final Object END = new Object();
    private static final Object CANCELLED = new Object();
    /** How many deltas may wait for the turn's thread. */
    static final int CAPACITY = 64;

    static final String PARAGRAPH = "\n\n";

    /** A finished call and how long it took. */
    record ModelCall(ModelReply reply, long latencyMs) {}

    /**
     * Streams one call. Text deltas go through {@code out} (output filters, then the client) as they arrive, and
     * the filters are flushed once the call's text is complete; on failure what they held back is dropped, so the
     * answer holds exactly what the client saw.
     *
     * @throws ModelFailure when the call fails, times out or is cancelled
     */
    ModelCall stream(ModelBinding binding, ModelRequest request, AnswerStream out) {
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>(CAPACITY);
        CompletableFuture<ModelReply> reply = new CompletableFuture<>();
        long started = System.nanoTime();
        ChatSpan span = TurnTracing.current().startChat(binding, request);
        Thread caller = Thread.ofVirtual()
                .name("model-" + binding.gateway().provider())
                .start(span.wrap(() -> {
                    try {
                        reply.complete(binding.gateway().stream(request, delta -> handOver(queue, delta)));
                    } catch (Throwable e) {
                        reply.completeExceptionally(e);
                    } finally {
                        try {
                            queue.put(END);
                        } catch (InterruptedException e) {
                            // the turn stopped waiting (and interrupted this thread): nobody reads the end
                        }
                    }
                }));

        // a gateway should notice the cancellation itself; this makes sure the turn stops waiting even if it does not
        // (a full queue has deltas to take, and each is checked against the cancellation)
        AutoCloseable onCancel = request.cancellation().onCancel(() -> queue.offer(CANCELLED));
        try {
            ModelCall call = drain(queue, reply, caller, started, request, out);
            span.succeeded(call.reply());
            return call;
        } catch (RuntimeException e) {
            span.failed(e);
            throw e;
        } finally {
            closeQuietly(onCancel);
            // however the turn stopped waiting, a gateway blocked on the full queue must not wait forever
            if (!reply.isDone()) caller.interrupt();
        }
    }

    /** Waits for room: the gateway is held up while the turn is. */
    private static void handOver(BlockingQueue<Object> queue, ModelDelta delta) {
        try {
            queue.put(delta);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelFailure(ModelFailure.Kind.CANCELLED, "the turn stopped waiting for the model");
        }
    }

    private ModelCall drain(
            BlockingQueue<Object> queue,
            CompletableFuture<ModelReply> reply,
            Thread caller,
            long started,
            ModelRequest request,
            AnswerStream out) {
        // text from an earlier model call of this turn and text from this one read as separate paragraphs
        boolean separate = !out.isEmpty();
        boolean streamedText = false;
        long deadline = started + request.timeout().plus(GRACE).toNanos();
        while (true) {
            Object item;
            try {
                item = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                caller.interrupt();
                throw new ModelFailure(ModelFailure.Kind.CANCELLED, "interrupted while waiting for the model");
            }
            if (item == null) {
                caller.interrupt();
                throw new ModelFailure(
                        ModelFailure.Kind.TIMEOUT, "the model did not finish within " + request.timeout());
            }
            if (item == END) {
                break;
            }
            // deltas already queued when the turn is cancelled are dropped: the client has stopped listening
            if (item == CANCELLED || request.cancellation().isCancelled()) {
                caller.interrupt();
                throw new ModelFailure(ModelFailure.Kind.CANCELLED, "the turn was cancelled");
            }
            long handing = System.nanoTime();
            switch ((ModelDelta) item) {
                case ModelDelta.Text text
                when text.content() != null && !text.content().isEmpty() -> {
                    if (separate && !streamedText) {
                        out.text(PARAGRAPH);
                    }
                    streamedText = true;
                    out.text(text.content());
                }
                case ModelDelta.Text ignored -> {}
                case ModelDelta.Thinking thinking -> out.thinking(thinking.content());
                // the client sees tool calls once the reply is finished (the turn emits tool_call then), never while
                // they stream: a resilient gateway may still retry after these, and the call would then show twice
                case ModelDelta.ToolCallDelta ignored -> {}
            }
            // the time the client holds the turn up (a full SSE stream) is not the model's
            deadline += System.nanoTime() - handing;
        }
        ModelReply finished;
        try {
            finished = reply.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
        if (!streamedText && !finished.text().isEmpty()) {
            // a gateway that does not stream text still answers through chunks
            if (separate) {
                out.text(PARAGRAPH);
            }
            out.text(finished.text());
        }
        out.endOfCall();
        return new ModelCall(finished, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private static void closeQuietly(AutoCloseable registration) {
        try {
            registration.close();
        } catch (Exception ignored) {
            // unregistering a cancel listener has nothing to fail on
        }
    }
}
