package dev.baton.core.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.util.function.BiConsumer;

/**
 * The W3C {@code traceparent} (and {@code tracestate}) of the span current on this thread, for the HTTP requests
 * Baton sends on a turn's behalf (model providers, webhooks, MCP servers), so their work joins the turn's trace.
 */
public final class TraceContextHeaders {
    private TraceContextHeaders() {}

    /** Whether a span is current, i.e. whether {@link #inject} would add anything. */
    public static boolean present() {
        return Span.current().getSpanContext().isValid();
    }

    /** Hands the current span's trace-context headers to {@code header}; nothing when no span is current. */
    public static void inject(BiConsumer<String, String> header) {
        Context context = Context.current();
        if (!Span.fromContext(context).getSpanContext().isValid()) return;
        W3CTraceContextPropagator.getInstance().inject(context, header, BiConsumer::accept);
    }
}
