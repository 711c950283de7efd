package dev.baton.spring.web;

/**
 * An error of the HTTP layer itself (a body that is not JSON, too large, not UTF-8), answered as {@code {"error":
 * {code, message, requestId}}}. Everything the runtime refuses is a {@code RefusalException}.
 */
final class ApiProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    ApiProblem(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    static ApiProblem badRequest(String message) {
        return new ApiProblem(400, "invalid_request", message);
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }
}
