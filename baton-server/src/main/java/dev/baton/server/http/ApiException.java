package dev.baton.server.http;

import dev.baton.wire.ApiProblem;
import java.time.Duration;

/**
 * An error of the HTTP layer itself (a body that is not JSON, too large, not UTF-8), answered as
 * {@code {"error": {code, message, requestId}}}, that may say when to come back. Everything the runtime refuses is a
 * {@code RefusalException}.
 */
public final class ApiException extends ApiProblem {
    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    public ApiException(int status, String code, String message, Duration retryAfter) {
        super(status, code, message);
        this.retryAfter = retryAfter;
    }

    public ApiException(int status, String code, String message) {
        this(status, code, message, null);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "invalid_request", message);
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
