package dev.baton.core.trace;

import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.turn.TurnRequest;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import java.util.Objects;

/**
 * Traces turns after the OpenTelemetry GenAI semantic conventions: an {@code invoke_agent {agent}} span per turn,
 * and inside it a {@code chat {model}} span per model call and an {@code execute_tool {tool}} span per tool run.
 * Message contents go on the spans only when content capture is on.
 *
 * <p>The tracing of a turn travels in the OpenTelemetry {@link Context} of its {@link AgentSpan}: code deeper in
 * the turn (the model streamer, the tool runs, an MCP client) finds it with {@link #current()}, so nothing on the
 * way needs a tracer handed down. With tracing off nothing is put in the context, {@link #current()} is
 * {@link #OFF}, and every span it starts is a shared do-nothing instance: the hot path allocates nothing.
 */
public final class TurnTracing {
    /** No spans. */
    public static final TurnTracing OFF = new TurnTracing(null, false);

    static final String SCOPE = "dev.baton";
    private static final ContextKey<TurnTracing> KEY = ContextKey.named("baton-turn-tracing");

    private final Tracer tracer;
    private final boolean captureContent;

    private TurnTracing(Tracer tracer, boolean captureContent) {
        this.tracer = tracer;
        this.captureContent = captureContent;
    }

    /**
     * Tracing through {@code openTelemetry} (the SDK the server configured).
     *
     * @param captureContent whether prompts, answers, tool arguments and results go on the spans (opt-in: they are
     *     the users' words)
     */
    public static TurnTracing of(OpenTelemetry openTelemetry, boolean captureContent) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        return new TurnTracing(openTelemetry.getTracer(SCOPE), captureContent);
    }

    /** The tracing of the turn whose span is current on this thread; {@link #OFF} outside a traced turn. */
    public static TurnTracing current() {
        TurnTracing tracing = Context.current().get(KEY);
        return tracing == null ? OFF : tracing;
    }

    /**
     * {@code task} running in the current context when a traced turn's span is current (so work a turn hands to
     * another thread, like a hook's webhook call, joins its trace); {@code task} itself otherwise.
     */
    public static Runnable propagate(Runnable task) {
        Context context = Context.current();
        return context.get(KEY) == null ? task : context.wrap(task);
    }

    public boolean isOn() {
        return tracer != null;
    }

    public boolean capturesContent() {
        return captureContent;
    }

    /**
     * Starts the turn's {@code invoke_agent} span as a child of the current context (the caller's trace when the
     * front door continued one). Make it current around the turn with {@link AgentSpan#makeCurrent()}.
     */
    public AgentSpan startAgent(TurnRequest request) {
        return isOn() ? AgentSpan.start(this, request) : AgentSpan.NONE;
    }

    /** Starts a {@code chat {model}} span for one model call, a child of the current span. */
    public ChatSpan startChat(ModelBinding binding, ModelRequest request) {
        return isOn() ? ChatSpan.start(this, binding, request) : ChatSpan.NONE;
    }

    /** Starts an {@code execute_tool {tool}} span for one tool run, a child of the current span. */
    public ToolSpan startTool(ToolCallRequest call) {
        return isOn() ? ToolSpan.start(this, call) : ToolSpan.NONE;
    }

    /**
     * A client span for a call to another service (an MCP server's {@code tools/call add}), a child of the current
     * span; the caller sets the attributes of its own conventions and ends it. Null when tracing is off.
     */
    public Span startClientSpan(String name) {
        return isOn() ? tracer.spanBuilder(name).setSpanKind(SpanKind.CLIENT).startSpan() : null;
    }

    Tracer tracer() {
        return tracer;
    }

    /**
     * {@code context} carrying this tracing, for traced work that runs outside a dispatched turn (a test, an
     * embedding's own span around a tool call): what runs with it current is traced as a turn's work would be.
     */
    public Context storeIn(Context context) {
        return context.with(KEY, this);
    }
}
