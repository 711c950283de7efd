package dev.baton.core.tool;

import java.util.Objects;

/**
 * Why a tool call produced no result, in words safe to show the model.
 *
 * @param code a short machine-readable reason, e.g. "invalid_arguments", "not_found", "timeout"
 * @param connect when the call needs the user to connect their own account on the tool's server first: where they do
 *     it; null otherwise. Set only by Baton's own tool sources ({@link ConnectRequiredException}), never from what a
 *     tool server said.
 */
public record ToolError(String code, String message, AccountConnect connect) {
    public ToolError {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    public ToolError(String code, String message) {
        this(code, message, null);
    }

    /**
     * Where the caller connects their own account on a tool server.
     *
     * @param server the server's configured name
     * @param connectUrl Baton's path that starts the authorization (e.g. {@code /v1/mcp/servers/notes/connect})
     */
    public record AccountConnect(String server, String connectUrl) {
        public AccountConnect {
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(connectUrl, "connectUrl");
        }
    }
}
