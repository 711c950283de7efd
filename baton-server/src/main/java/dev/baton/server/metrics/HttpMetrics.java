package dev.baton.server.metrics;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code http_server_requests_seconds}: every HTTP request by method, route template and status, with a latency
 * histogram. The route is the matched path template ({@code /v1/sessions/{id}/messages}), never the concrete path,
 * so ids never become label values. A request refused by a before-handler ahead of routing (a 401 under
 * {@code /v1/*}) carries that handler's pattern, {@code /v1/*}; one that nothing matched is {@value #UNMATCHED}; a
 * method outside the standard ones is {@code other}. An SSE response counts once, when its stream ends.
 */
public final class HttpMetrics {
    /** The route label of a request that matched no route. */
    public static final String UNMATCHED = "unmatched";

    private static final Duration[] BUCKETS = Buckets.of(
            "5ms", "10ms", "25ms", "50ms", "100ms", "250ms", "500ms", "1s", "2.5s", "5s", "10s", "30s", "60s");

    private static final Set<String> METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "QUERY");

    private final Meter.MeterProvider<Timer> requests;

    public HttpMetrics(MeterRegistry registry) {
        this.requests = Timer.builder("http.server.requests")
                .description("HTTP requests by method, route template and status")
                .serviceLevelObjectives(BUCKETS)
                .withRegistry(registry);
    }

    /** Records one finished request that took {@code nanos}. */
    public void record(Context ctx, long nanos) {
        record(method(ctx), route(ctx), ctx.statusCode(), nanos);
    }

    /** Records one finished request of {@code method} on the route template {@code route}. */
    public void record(String method, String route, int status, long nanos) {
        requests.withTags("method", method, "route", route, "status", Integer.toString(status))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The method, when it is a standard one: a client can send any token as its method. */
    private static String method(Context ctx) {
        String method = ctx.method().name();
        return METHODS.contains(method) ? method : "other";
    }

    private static String route(Context ctx) {
        Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
        if (matched != null) return matched.path;
        // refused by a before-handler ahead of routing (a 401 from authentication): that handler's own pattern
        List<Endpoint> ran = ctx.endpoints().list();
        for (int i = ran.size() - 1; i >= 0; i--) {
            Endpoint e = ran.get(i);
            if (e.method.equals(HandlerType.BEFORE) && !e.path.equals("*")) return e.path;
        }
        return UNMATCHED;
    }
}
