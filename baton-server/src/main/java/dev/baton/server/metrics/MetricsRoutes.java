package dev.baton.server.metrics;

import dev.baton.server.http.ErrorResponses;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * {@code GET /metrics}: every meter in the Prometheus text format. It needs no JWT (a scraper has none); when
 * {@code metrics.token} is configured it asks for that bearer token instead (401 without it), and when metrics are
 * disabled the route does not exist (404).
 */
public final class MetricsRoutes {
    private static final String PREFIX = "Bearer ";

    private final BatonMetrics metrics;
    private final byte[] token;

    public MetricsRoutes(BatonMetrics metrics) {
        this.metrics = metrics;
        String t = metrics.settings().token();
        this.token = t == null ? null : t.getBytes(StandardCharsets.UTF_8);
    }

    public void register(RoutesConfig routes) {
        if (!metrics.enabled()) return;
        routes.get("/metrics", this::scrape);
    }

    private void scrape(Context ctx) {
        if (token != null && !authorized(ctx.header("Authorization"))) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"metrics\"");
            ErrorResponses.write(ctx, 401, "unauthorized", "the metrics token is missing or wrong");
            return;
        }
        ctx.contentType(BatonMetrics.CONTENT_TYPE).result(metrics.scrape());
    }

    private boolean authorized(String header) {
        if (header == null || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) return false;
        byte[] offered = header.substring(PREFIX.length()).strip().getBytes(StandardCharsets.UTF_8);
        // constant time: how much of the token matched must not show in the response time
        return MessageDigest.isEqual(offered, token);
    }
}
