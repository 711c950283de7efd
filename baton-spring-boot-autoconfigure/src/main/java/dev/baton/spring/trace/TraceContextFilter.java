package dev.baton.spring.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Continues a caller's trace on Baton's API: a request's W3C {@code traceparent} (and {@code tracestate}) is made the
 * current OpenTelemetry context while it is handled, so the turn it runs is a child of the caller's span. When the
 * app's own server observation (Micrometer Tracing over OpenTelemetry) has already made a span of this request
 * current, that span — itself the caller's child — stays the parent and this filter does nothing.
 */
public final class TraceContextFilter extends OncePerRequestFilter {
    private static final TextMapGetter<HttpServletRequest> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServletRequest request) {
            return Collections.list(request.getHeaderNames());
        }

        @Override
        public String get(HttpServletRequest request, String key) {
            return request == null ? null : request.getHeader(key);
        }
    };

    private final TextMapPropagator propagator;

    public TraceContextFilter(TextMapPropagator propagator) {
        this.propagator = propagator;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getHeader("traceparent") == null
                || Span.current().getSpanContext().isValid()) {
            chain.doFilter(request, response);
            return;
        }
        try (Scope ignored =
                propagator.extract(Context.current(), request, HEADERS).makeCurrent()) {
            chain.doFilter(request, response);
        }
    }
}
