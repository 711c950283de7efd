package dev.baton.server.http;

import java.time.Duration;

/** An error answered as {@code {"error": {code, message, requestId}}} with the given status. */
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

    public static ApiException notFound(String what) {
        return new ApiException(404, "not_found", what + " not found");
    }

    public static ApiException forbidden(String message) {
        return new ApiException(403, "forbidden", message);
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(409, code, message);
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
