package dev.baton.core.tool;

import java.util.Objects;

/**
 * Why a tool call produced no result, in words safe to show the model.
 *
 * @param code a short machine-readable reason, e.g. "invalid_arguments", "not_found", "timeout"
 */
public record ToolError(String code, String message) {
    public ToolError {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }
}
