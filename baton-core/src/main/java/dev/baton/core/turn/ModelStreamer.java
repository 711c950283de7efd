package dev.baton.core.turn;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.trace.ChatSpan;
import dev.baton.core.trace.TurnTracing;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes one streaming model call and turns its deltas into turn events. The gateway runs on the turn's own thread and
 * hands each delta over on it (the {@link ModelGateway} contract), so the turn's event sink is only ever called from
 * the thread running the turn, in order, with no queue and no thread of its own per call. A turn held up by its
 * client (an SSE stream whose client stopped reading) holds up the gateway inside {@code onDelta}, which then stops
 * reading the provider's stream: nothing piles up here.
 */
final class ModelStreamer {

    static final String PARAGRAPH = "\n\n";

    private static final Logger log = LoggerFactory.getLogger("baton.model");

    /** A finished call and how long it took. */
    record ModelCall(ModelReply reply, long latencyMs) {}

    /**
     * Streams one call. Text deltas go through {@code out} (output filters, then the client) as they arrive, and
     * the filters are flushed once the call's text is complete; on failure what they held back is dropped, so the
     * answer holds exactly what the client saw.
     *
     * @throws ModelFailure when the call fails, times out or is cancelled
     * @throws IllegalStateException when the gateway hands a delta over on another thread than the caller's
     */
    ModelCall stream(ModelBinding binding, ModelRequest request, AnswerStream out) {
        long started = System.nanoTime();
        ChatSpan span = TurnTracing.current().startChat(binding, request);
        Deltas deltas = new Deltas(out, request, Thread.currentThread());
        ModelReply[] finished = new ModelReply[1];
        try {
            // in the span's context, so the provider's HTTP client sends it on as the request's traceparent
            span.wrap(() -> finished[0] = binding.gateway().stream(request, deltas))
                    .run();
            ModelCall call = new ModelCall(
                    deltas.finish(finished[0]), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            span.succeeded(call.reply());
            logFinished(binding, request, call);
            return call;
        } catch (RuntimeException e) {
            span.failed(e);
            logFailed(binding, e, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            throw e;
        }
    }

    /**
     * {@code model_call_finished}: the model as configured ({@code modelRef}, e.g. an alias's {@code
     * simulator:default}), the model the provider says answered ({@code provider}, {@code model}), tokens and time.
     */
    private static void logFinished(ModelBinding binding, ModelRequest request, ModelCall call) {
        ModelReply reply = call.reply();
        log.atInfo()
                .addKeyValue("event", "model_call_finished")
                .addKeyValue("modelRef", binding.reference())
                .addKeyValue(
                        "provider",
                        reply.provider() != null
                                ? reply.provider()
                                : binding.gateway().provider())
                .addKeyValue("model", reply.model() == null ? binding.model() : reply.model())
                .addKeyValue("messages", request.messages().size())
                .addKeyValue("tools", request.tools().size())
                .addKeyValue("inputTokens", reply.usage().inputTokens())
                .addKeyValue("outputTokens", reply.usage().outputTokens())
                .addKeyValue("cachedInputTokens", reply.usage().cachedInputTokens())
                .addKeyValue("responseLength", reply.text().length())
                .addKeyValue("toolCalls", reply.toolCalls().size())
                .addKeyValue("finishReason", reply.finishReason())
                .addKeyValue("durationMs", call.latencyMs())
                .log("model call finished: {}", binding.reference());
    }

    /** {@code model_call_failed}, with the failure's kind; a cancelled call is no failure of the model's. */
    private static void logFailed(ModelBinding binding, RuntimeException e, long durationMs) {
        if (e instanceof ModelFailure failure && failure.kind() == ModelFailure.Kind.CANCELLED) return;
        String kind = e instanceof ModelFailure failure
                ? failure.kind().name()
                : e.getClass().getSimpleName();
        log.atWarn()
                .addKeyValue("event", "model_call_failed")
                .addKeyValue("modelRef", binding.reference())
                .addKeyValue("provider", binding.gateway().provider())
                .addKeyValue("model", binding.model())
                .addKeyValue("errorType", kind)
                .addKeyValue("errorMessage", e.getMessage())
                .addKeyValue("durationMs", durationMs)
                .log("model call failed ({}): {}", kind, e.getMessage());
    }

    /** What the turn does with each delta of one call, on the turn's thread. */
    private static final class Deltas implements Consumer<ModelDelta> {
        private final AnswerStream out;
        private final ModelRequest request;
        private final Thread turn;
        /** Text from an earlier model call of this turn and text from this one read as separate paragraphs. */
        private final boolean separate;

        private boolean streamedText;

        Deltas(AnswerStream out, ModelRequest request, Thread turn) {
            this.out = out;
            this.request = request;
            this.turn = turn;
            this.separate = !out.isEmpty();
        }

        @Override
        public void accept(ModelDelta delta) {
            if (Thread.currentThread() != turn) {
                // the turn's answer and event sink are not thread-safe: a gateway breaking the contract must fail
                // loudly, not interleave text
                throw new IllegalStateException(
                        "model gateway handed a delta over on " + Thread.currentThread() + ", not the caller's thread");
            }
            // deltas that arrive once the turn is cancelled are dropped: the client has stopped listening
            if (request.cancellation().isCancelled()) {
                throw new ModelFailure(ModelFailure.Kind.CANCELLED, "the turn was cancelled");
            }
            switch (delta) {
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
        }

        /** Ends the call's text: a gateway that did not stream its text still answers through chunks. */
        ModelReply finish(ModelReply reply) {
            if (!streamedText && !reply.text().isEmpty()) {
                if (separate) {
                    out.text(PARAGRAPH);
                }
                out.text(reply.text());
            }
            out.endOfCall();
            return reply;
        }
    }
}
