package dev.baton.server.http;

import java.time.Duration;

/**
 * An error of the HTTP layer itself (a body that is not JSON, too large, not UTF-8), answered as
 * {@code {"error": {code, message, requestId}}}. Everything the runtime refuses is a {@code RefusalException}.
 */
public final class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final Duration retryAfter;

    public ApiException(int status, String code, String message, Duration retryAfter) {
        super(message);
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    public ApiException(int status, String code, String message) {
        this(status, code, message, null);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "invalid_request", message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
