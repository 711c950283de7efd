package dev.baton.server.openai;

/**
 * A request the OpenAI-compatible door refuses before the runtime sees it, naming the field at fault as OpenAI's
 * {@code error.param} does.
 */
final class InvalidRequest extends RuntimeException {
    private final int status;
    private final String code;
    private final String param;

    InvalidRequest(int status, String code, String param, String message) {
        super(message);
        this.status = status;
        this.code = code;
        this.param = param;
    }

    /** 400 for {@code param}. */
    static InvalidRequest of(String param, String message) {
        return new InvalidRequest(400, "invalid_request", param, message);
    }

    /** A model (agent) that does not exist or that the caller may not use: the same answer for both, as OpenAI's. */
    static InvalidRequest unknownModel(String model) {
        return new InvalidRequest(
                404,
                "model_not_found",
                "model",
                "The model '" + model + "' does not exist or you do not have access to it.");
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }

    String param() {
        return param;
    }
}
