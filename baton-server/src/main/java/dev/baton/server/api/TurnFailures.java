package dev.baton.server.api;

import dev.baton.core.turn.TurnEvent;
import dev.baton.server.http.ApiException;

/** How a failed turn answers a JSON (non-streaming) request. Over SSE the same failure is an error event. */
final class TurnFailures {
    private TurnFailures() {}

    static ApiException toApiException(TurnEvent.Failed f) {
        int status = switch (f.code()) {
            case "model_timeout", "request_timeout" -> 504;
            case "rate_limited" -> 429;
            // known to be down for a known time (an open circuit breaker): come back after Retry-After
            case "model_unavailable" -> f.retryAfter() != null ? 503 : 502;
            case "model_auth", "model_bad_request" -> 502;
            case "cancelled" -> 409;
            default -> 500;
        };
        return new ApiException(status, f.code(), f.message(), f.retryAfter());
    }
}
