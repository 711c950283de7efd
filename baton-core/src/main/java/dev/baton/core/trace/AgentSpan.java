package dev.baton.core.trace;

import static dev.baton.core.trace.GenAiAttributes.*;

import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/** The {@code invoke_agent {agent}} span of one turn: the root of the turn's spans. */
public final class AgentSpan {
    static final AgentSpan NONE = new AgentSpan(null, null);

    private final Span span;
    private final Context context;

    private AgentSpan(Span span, Context context) {
        this.span = span;
        this.context = context;
    }

    static AgentSpan start(TurnTracing tracing, TurnRequest request) {
        String model = request.agent().model();
        int colon = model.indexOf(':');
        Span span = tracing.tracer()
                .spanBuilder(INVOKE_AGENT + " " + request.agent().name())
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(OPERATION_NAME, INVOKE_AGENT)
                .setAttribute(AGENT_ID, request.agent().id())
                .setAttribute(AGENT_NAME, request.agent().name())
                .setAttribute(CONVERSATION_ID, request.session().id())
                .setAttribute(PROVIDER_NAME, providerName(colon < 0 ? null : model.substring(0, colon)))
                .setAttribute(REQUEST_MODEL, colon < 0 ? model : model.substring(colon + 1))
                .setAttribute(REQUEST_ID, request.requestId())
                .startSpan();
        return new AgentSpan(span, tracing.storeIn(Context.current().with(span)));
    }

    /** Makes the span, and the turn's tracing, current on this thread until the scope is closed. */
    public Scope makeCurrent() {
        return context == null ? Scope.noop() : context.makeCurrent();
    }

    /** Ends the span with the turn's usage and how it ended ({@code error.type} is the error code sent). */
    public void end(TurnOutcome outcome) {
        if (span == null) return;
        span.setAttribute(INPUT_TOKENS, outcome.usage().inputTokens());
        span.setAttribute(OUTPUT_TOKENS, outcome.usage().outputTokens());
        if (outcome.model() != null) span.setAttribute(RESPONSE_MODEL, outcome.model());
        switch (outcome.terminal()) {
            case TurnEvent.Failed failed -> {
                span.setAttribute(ERROR_TYPE, failed.code());
                span.setAttribute(TURN_STATUS, failed.code());
                span.setStatus(StatusCode.ERROR, failed.message());
            }
            case TurnEvent.AwaitingApproval ignored -> span.setAttribute(TURN_STATUS, "awaiting_approval");
            default -> span.setAttribute(TURN_STATUS, "ok");
        }
        span.end();
    }

    /** Ends the span of a turn that failed before it could report an outcome. */
    public void end(RuntimeException failure) {
        if (span == null) return;
        span.setAttribute(ERROR_TYPE, failure.getClass().getName());
        span.setStatus(StatusCode.ERROR);
        span.end();
    }
}
