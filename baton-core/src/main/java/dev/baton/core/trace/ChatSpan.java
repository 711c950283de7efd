package dev.baton.core.trace;

import static dev.baton.core.trace.GenAiAttributes.*;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import java.util.List;
import java.util.Locale;

/**
 * The {@code chat {model}} span of one model call. {@link #wrap} runs the gateway in the span's context, so the
 * provider's HTTP client sends it on as the request's {@code traceparent}.
 */
public final class ChatSpan {
    static final ChatSpan NONE = new ChatSpan(null, null, false);

    private final Span span;
    private final Context context;
    private final boolean captureContent;

    private ChatSpan(Span span, Context context, boolean captureContent) {
        this.span = span;
        this.context = context;
        this.captureContent = captureContent;
    }

    static ChatSpan start(TurnTracing tracing, ModelBinding binding, ModelRequest request) {
        Span span = tracing.tracer()
                .spanBuilder(CHAT + " " + binding.model())
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(OPERATION_NAME, CHAT)
                .setAttribute(PROVIDER_NAME, providerName(binding.gateway().provider()))
                .setAttribute(REQUEST_MODEL, binding.model())
                .startSpan();
        if (tracing.capturesContent()) {
            span.setAttribute(INPUT_MESSAGES, ContentCapture.inputMessages(request.messages()));
        }
        return new ChatSpan(span, Context.current().with(span), tracing.capturesContent());
    }

    /** {@code task} running in this span's context, wherever it runs. */
    public Runnable wrap(Runnable task) {
        return context == null ? task : context.wrap(task);
    }

    /** Ends the span with what the model answered. */
    public void succeeded(ModelReply reply) {
        if (span == null) return;
        if (reply.provider() != null) {
            // a fallback chain: the provider that answered
            span.setAttribute(PROVIDER_NAME, providerName(reply.provider()));
        }
        if (reply.model() != null && !reply.model().isBlank()) span.setAttribute(RESPONSE_MODEL, reply.model());
        span.setAttribute(INPUT_TOKENS, reply.usage().inputTokens());
        span.setAttribute(OUTPUT_TOKENS, reply.usage().outputTokens());
        if (reply.finishReason() != null) span.setAttribute(FINISH_REASONS, List.of(reply.finishReason()));
        if (captureContent) span.setAttribute(OUTPUT_MESSAGES, ContentCapture.outputMessages(reply));
        span.end();
    }

    /**
     * Ends the span of a call that failed: {@code error.type} is the failure's kind in lower case ({@code
     * unavailable}, {@code rate_limited}, {@code timeout}, {@code cancelled}, ...), or the exception's class.
     */
    public void failed(RuntimeException failure) {
        if (span == null) return;
        String type = failure instanceof ModelFailure f
                ? f.kind().name().toLowerCase(Locale.ROOT)
                : failure.getClass().getName();
        span.setAttribute(ERROR_TYPE, type);
        span.setStatus(StatusCode.ERROR, failure.getMessage());
        span.end();
    }
}
