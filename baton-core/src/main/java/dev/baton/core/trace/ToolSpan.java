package dev.baton.core.trace;

import static dev.baton.core.trace.GenAiAttributes.*;

import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolCallOutcome;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;

/**
 * The {@code execute_tool {tool}} span of one tool run. The tool runs on a thread of its own: {@link #wrap} carries
 * the span there, so what the tool calls (an MCP server) nests under it.
 */
public final class ToolSpan {
    static final ToolSpan NONE = new ToolSpan(null, null, false);

    private final Span span;
    private final Context context;
    private final boolean captureContent;

    private ToolSpan(Span span, Context context, boolean captureContent) {
        this.span = span;
        this.context = context;
        this.captureContent = captureContent;
    }

    static ToolSpan start(TurnTracing tracing, ToolCallRequest call) {
        Span span = tracing.tracer()
                .spanBuilder(EXECUTE_TOOL + " " + call.name())
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(OPERATION_NAME, EXECUTE_TOOL)
                .setAttribute(TOOL_NAME, call.name())
                .setAttribute(TOOL_CALL_ID, call.id())
                .setAttribute(TOOL_TYPE, "function")
                .startSpan();
        if (tracing.capturesContent() && call.argumentsJson() != null) {
            span.setAttribute(TOOL_CALL_ARGUMENTS, call.argumentsJson());
        }
        return new ToolSpan(span, Context.current().with(span), tracing.capturesContent());
    }

    /** {@code task} running in this span's context, wherever it runs. */
    public Runnable wrap(Runnable task) {
        return context == null ? task : context.wrap(task);
    }

    /** Ends the span with the call's outcome: a refused, failed, timed-out or cancelled call has its error code. */
    public void end(ToolCallOutcome outcome) {
        if (span == null) return;
        if (outcome.ok()) {
            if (captureContent && outcome.result() != null) {
                span.setAttribute(TOOL_CALL_RESULT, outcome.result().toString());
            }
        } else {
            String code = outcome.error() == null
                    ? outcome.state().wireName()
                    : outcome.error().code();
            span.setAttribute(ERROR_TYPE, code);
            span.setStatus(
                    StatusCode.ERROR,
                    outcome.error() == null ? null : outcome.error().message());
        }
        span.end();
    }
}
