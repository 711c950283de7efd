package dev.baton.core.tool;

/**
 * A tool failure whose message is safe to hand to the model (and so to the user): "no task with id ...",
 * "title must be 1-200 characters". Anything else a tool throws is reported to the model as a generic error.
 */
public class ToolException extends RuntimeException {
    private final String code;

    public ToolException(String code, String message) {
        super(message);
        this.code = code;
    }

    /** A short machine-readable reason such as "not_found", "invalid_argument", "confirmation_required". */
    public String code() {
        return code;
    }
}
