package dev.baton.wire;

/**
 * An error of the HTTP layer itself — a body that is not JSON, too large, not UTF-8; a header or field out of its
 * range — answered with its status and the one error body. Everything the runtime refuses is a
 * {@code RefusalException}.
 */
public class ApiProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    public ApiProblem(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    public static ApiProblem badRequest(String message) {
        return new ApiProblem(400, "invalid_request", message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
