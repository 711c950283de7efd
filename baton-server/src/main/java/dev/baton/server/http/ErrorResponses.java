package dev.baton.server.http;

import dev.baton.core.domain.DomainException;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.server.auth.AuthException;
import dev.baton.wire.ApiProblem;
import dev.baton.wire.ErrorStatuses;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become HTTP statuses and {@code {"error": {code, message, requestId}}} bodies: the
 * runtime's refusals, the domains' refusals, a failed turn answered as JSON, authentication, malformed bodies, and
 * anything unexpected.
 */
public final class ErrorResponses {
    private static final Logger log = LoggerFactory.getLogger(ErrorResponses.class);

    /** The code of every answer the database's absence causes, directly or through a failed turn. */
    static final String DATABASE_UNAVAILABLE = ErrorStatuses.DATABASE_UNAVAILABLE;

    private ErrorResponses() {}

    public static void register(RoutesConfig routes) {
        routes.exception(RefusalException.class, (e, ctx) -> refuse(ctx, e.refusal()));
        routes.exception(
                DomainException.class,
                (e, ctx) ->
                        write(ctx, ErrorStatuses.status(e.kind()), ErrorStatuses.wireCode(e.kind()), e.getMessage()));
        routes.exception(ApiException.class, (e, ctx) -> write(ctx, e.status(), e.code(), e.getMessage()));
        routes.exception(ApiProblem.class, (e, ctx) -> write(ctx, e.status(), e.code(), e.getMessage()));
        routes.exception(StoreUnavailableException.class, (e, ctx) -> {
            log.debug("database unavailable on {} {}: {}", ctx.method(), ctx.path(), e.getMessage());
            if (ctx.res().isCommitted()) return;
            ctx.header("Retry-After", Long.toString(retryAfterSeconds(e.retryAfter())));
            write(ctx, 503, DATABASE_UNAVAILABLE, "the database is unavailable; retry shortly");
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

    /** Answers a refusal: its status, {@code Retry-After} when the caller should come back, the quota fields. */
    public static void refuse(Context ctx, Refusal refusal) {
        switch (refusal) {
            case Refusal.RateLimited r -> {
                r.quotaHeaders().forEach(ctx::header);
                ctx.header("Retry-After", Long.toString(retryAfterSeconds(r.retryAfter())));
            }
            case Refusal.BudgetExceeded b ->
                ctx.header("Retry-After", Long.toString(retryAfterSeconds(b.retryAfter())));
            default -> {}
        }
        write(ctx, status(refusal), refusal.code(), refusal.message());
    }

    /** The status of each refusal. */
    public static int status(Refusal refusal) {
        return ErrorStatuses.status(refusal);
    }

    /** Answers a turn that failed, for a request that wanted one JSON document (over SSE it is an error event). */
    public static void turnFailed(Context ctx, TurnEvent.Failed failed) {
        if (failed.retryAfter() != null)
            ctx.header("Retry-After", Long.toString(retryAfterSeconds(failed.retryAfter())));
        write(ctx, status(failed), failed.code(), failed.message());
    }

    /** The status of a failed turn, by its error code. */
    public static int status(TurnEvent.Failed failed) {
        return ErrorStatuses.status(failed);
    }

    /** A wait as Retry-After's whole seconds: rounded up, and at least 1 so that clients never retry at once. */
    public static long retryAfterSeconds(Duration wait) {
        return ErrorStatuses.retryAfterSeconds(wait);
    }

    public static void write(Context ctx, int status, String code, String message) {
        write(ctx, status, code, message, null);
    }

    /**
     * Writes the error; {@code param} names the request field at fault, for the bodies that have a place for it (the
     * OpenAI-compatible door's, {@link OpenAiErrorShape}), or is null.
     */
    public static void write(Context ctx, int status, String code, String message, String param) {
        // a refusal may come before the body was read (a missing token, a wrong media type)
        discardUnreadBody(ctx);
        String body = OpenAiErrorShape.covers(ctx.path())
                ? OpenAiErrorShape.body(status, code, message, param).toString()
                : body(code, message, ctx.attribute(RequestIds.ATTRIBUTE));
        ctx.status(status).contentType("application/json").result(body);
        ctx.attribute("baton.errorBody", Boolean.TRUE);
    }

    private static void discardUnreadBody(Context ctx) {
        try {
            RequestBody.discardUnread(ctx.req().getInputStream());
        } catch (IOException | IllegalStateException e) {
            // no body to drop: the request's reader was taken, or the request is gone
        }
    }

    /** The error body every failure is answered with: {@code {"error": {code, message, requestId}}}. */
    static String body(String code, String message, String requestId) {
        return ErrorStatuses.body(code, message, requestId);
    }

    /** The code of an error the HTTP server answered by itself, by its status. */
    static String codeOf(int status) {
        return switch (status) {
            case 400 -> "invalid_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 408 -> "request_timeout";
            case 413 -> "request_too_large";
            case 414 -> "uri_too_long";
            case 431 -> "headers_too_large";
            case 503 -> "unavailable";
            default -> status >= 500 ? "internal_error" : "http_" + status;
        };
    }

    /**
     * Marks the answer's body as the route's own account of an error status (an MCP JSON-RPC error answered with 404):
     * the API's generic error body must not replace it.
     */
    public static void keepErrorBody(Context ctx) {
        ctx.attribute("baton.errorBody", Boolean.TRUE);
    }

    private static boolean hasErrorBody(Context ctx) {
        return Boolean.TRUE.equals(ctx.attribute("baton.errorBody"));
    }
}
