package dev.baton.spring.web;

import dev.baton.core.domain.DomainException;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Refusal;
import java.time.Duration;

/** The statuses and wire codes of {@code baton serve} for refusals, domain refusals and failed JSON turns. */
final class Statuses {
    static final String DATABASE_UNAVAILABLE = "database_unavailable";

    private Statuses() {}

    static int of(Refusal refusal) {
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

    static int of(TurnEvent.Failed failed) {
        return switch (failed.code()) {
            case "model_timeout", "request_timeout" -> 504;
            case DATABASE_UNAVAILABLE -> 503;
            case "rate_limited" -> 429;
            case "model_unavailable" -> failed.retryAfter() != null ? 503 : 502;
            case "model_auth", "model_bad_request" -> 502;
            case "model_not_configured" -> 503;
            case "cancelled" -> 409;
            default -> 500;
        };
    }

    static int of(DomainException.Kind kind) {
        return switch (kind) {
            case NOT_FOUND -> 404;
            case PERMISSION_DENIED -> 403;
            case MALFORMED -> 400;
            case INVALID_ARGUMENT -> 422;
            case CONFLICT -> 409;
        };
    }

    static String wireCode(DomainException.Kind kind) {
        return switch (kind) {
            case NOT_FOUND -> "not_found";
            case PERMISSION_DENIED -> "forbidden";
            case MALFORMED -> "invalid_request";
            case INVALID_ARGUMENT -> "invalid_value";
            case CONFLICT -> "conflict";
        };
    }

    /** A wait as Retry-After's whole seconds: rounded up, and at least 1 so that clients never retry at once. */
    static long retryAfterSeconds(Duration wait) {
        long seconds = wait.toSeconds() + (wait.toNanosPart() == 0 ? 0 : 1);
        return Math.max(1, seconds);
    }
}
