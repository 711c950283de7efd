package dev.baton.wire;

import dev.baton.core.domain.DomainException;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Refusal;
import java.time.Duration;

/**
 * The HTTP status and error code of each of Baton's refusals, of a domain's refusal and of a turn that failed for a
 * request that wanted one JSON document: one table, whichever door answers (api.md, "Status codes").
 */
public final class ErrorStatuses {
    /** The code of every answer the database's absence causes, directly or through a failed turn. */
    public static final String DATABASE_UNAVAILABLE = "database_unavailable";

    private ErrorStatuses() {}

    /** The status of each refusal (its code is {@link Refusal#code()}). */
    public static int status(Refusal refusal) {
        return switch (refusal) {
            case Refusal.RateLimited r -> 429;
            case Refusal.BudgetExceeded b -> 429;
            case Refusal.SessionBusy b -> 409;
            case Refusal.SessionCompleted c -> 409;
            case Refusal.AgentUnavailable a -> 409;
            case Refusal.IdempotencyKeyInUse k -> 409;
            case Refusal.NotFound n -> 404;
            case Refusal.Forbidden f -> 403;
            case Refusal.InvalidInput i -> 400;
            case Refusal.InvalidValue v -> 422;
            case Refusal.IdempotencyKeyReused k -> 422;
            case Refusal.ApprovalNotPending a -> 409;
            case Refusal.InvalidArguments a -> 422;
        };
    }

    /** The status of a failed turn, by its error code. */
    public static int status(TurnEvent.Failed failed) {
        return switch (failed.code()) {
            case "model_timeout", "request_timeout" -> 504;
            case DATABASE_UNAVAILABLE -> 503;
            case "rate_limited" -> 429;
            // known to be down for a known time (an open circuit breaker): come back after Retry-After
            case "model_unavailable" -> failed.retryAfter() != null ? 503 : 502;
            case "model_auth", "model_bad_request" -> 502;
            // the server cannot reach any model for this agent: nothing the client can change
            case "model_not_configured" -> 503;
            case "cancelled" -> 409;
            default -> 500;
        };
    }

    /** The status of a domain's refusal. */
    public static int status(DomainException.Kind kind) {
        return switch (kind) {
            case NOT_FOUND -> 404;
            case PERMISSION_DENIED -> 403;
            case MALFORMED -> 400;
            case INVALID_ARGUMENT -> 422;
            case CONFLICT -> 409;
        };
    }

    /** The HTTP API's codes for the domains' kinds (the tools report the domain's own codes to the model). */
    public static String wireCode(DomainException.Kind kind) {
        return switch (kind) {
            case NOT_FOUND -> "not_found";
            case PERMISSION_DENIED -> "forbidden";
            case MALFORMED -> "invalid_request";
            case INVALID_ARGUMENT -> "invalid_value";
            case CONFLICT -> "conflict";
        };
    }

    /** A wait as Retry-After's whole seconds: rounded up, and at least 1 so that clients never retry at once. */
    public static long retryAfterSeconds(Duration wait) {
        long seconds = wait.toSeconds() + (wait.toNanosPart() == 0 ? 0 : 1);
        return Math.max(1, seconds);
    }

    /** The error body every failure is answered with: {@code {"error": {code, message, requestId}}}. */
    public static String body(String code, String message, String requestId) {
        var err = WireJson.MAPPER.createObjectNode();
        err.putObject("error").put("code", code).put("message", message).put("requestId", requestId);
        return err.toString();
    }
}
