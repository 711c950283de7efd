package dev.baton.server.trace;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;

/**
 * Continues a caller's trace: the W3C {@code traceparent} (and {@code tracestate}) of a request is made the current
 * context while it is handled, so a turn it runs is a child of the caller's span. Handlers run on the request's own
 * thread, from the before-handler to the after-handler, which is where the scope is opened and closed.
 */
public final class TraceContextRoutes {
    private static final String SCOPE = "baton.traceScope";

    private static final TextMapGetter<Context> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Context ctx) {
            return ctx.headerMap().keySet();
        }

        @Override
        public String get(Context ctx, String key) {
            return ctx == null ? null : ctx.header(key);
        }
    };

    private final TextMapPropagator propagator;

    public TraceContextRoutes(TextMapPropagator propagator) {
        this.propagator = propagator;
    }

    public void register(RoutesConfig routes) {
        routes.before(ctx -> {
            if (ctx.header("traceparent") == null) return;
            io.opentelemetry.context.Context caller =
                    propagator.extract(io.opentelemetry.context.Context.current(), ctx, HEADERS);
            ctx.attribute(SCOPE, caller.makeCurrent());
        });
        routes.after(ctx -> {
            Scope scope = ctx.attribute(SCOPE);
            if (scope != null) scope.close();
        });
    }
}
