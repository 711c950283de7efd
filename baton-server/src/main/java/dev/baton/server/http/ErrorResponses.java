package dev.baton.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.auth.AuthException;
import dev.baton.server.limits.LimitExceeded;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one place where failures become HTTP statuses and {@code {"error": {...}}} bodies. */
public final class ErrorResponses {
    private static final Logger log = LoggerFactory.getLogger(ErrorResponses.class);

    private ErrorResponses() {}

    public static void register(RoutesConfig routes) {
        routes.exception(ApiException.class, (e, ctx) -> {
            if (e.retryAfter() != null) {
                ctx.header("Retry-After", Long.toString(retryAfterSeconds(e.retryAfter())));
            }
            write(ctx, e.status(), e.code(), e.getMessage());
        });
        routes.exception(LimitExceeded.class, (e, ctx) -> {
            e.headers().forEach(ctx::header);
            ctx.header("Retry-After", Long.toString(retryAfterSeconds(e.retryAfter())));
            write(ctx, e.status(), e.code(), e.getMessage());
        });
        routes.exception(AuthException.class, (e, ctx) -> {
            ctx.header("WWW-Authenticate", "Bearer");
            write(ctx, 401, "unauthorized", e.getMessage());
        });
        routes.exception(Exception.class, (e, ctx) -> {
            log.error("unexpected error on {} {}", ctx.method(), ctx.path(), e);
            // a stream that already began (SSE) cannot turn into a JSON error: its events said how the turn ended
            if (ctx.res().isCommitted()) return;
            write(ctx, 500, "internal_error", "unexpected error; quote the request id when reporting it");
        });
        routes.error(404, "*", ctx -> {
            if (!ctx.res().isCommitted() && !hasErrorBody(ctx)) write(ctx, 404, "not_found", "no such endpoint");
        });
        routes.error(405, "*", ctx -> write(ctx, 405, "method_not_allowed", "method not allowed"));
    }

    /** A wait as Retry-After's whole seconds: rounded up, and at least 1 so that clients never retry at once. */
    public static long retryAfterSeconds(Duration wait) {
        long seconds = wait.toSeconds() + (wait.toNanosPart() == 0 ? 0 : 1);
        return Math.max(1, seconds);
    }

    public static void write(Context ctx, int status, String code, String message) {
        ObjectNode err = Json.MAPPER.createObjectNode();
        err.putObject("error").put("code", code).put("message", message).put("requestId", (String)
                ctx.attribute(RequestIds.ATTRIBUTE));
        ctx.status(status).contentType("application/json").result(err.toString());
        ctx.attribute("baton.errorBody", Boolean.TRUE);
    }

    private static boolean hasErrorBody(Context ctx) {
        return Boolean.TRUE.equals(ctx.attribute("baton.errorBody"));
    }
}
