package dev.baton.server.auth;

/**
 * A request to {@code /mcp} whose credentials are missing or not acceptable (401): apart from the API's refusal it
 * is answered with the challenge that leads an MCP client to the protected resource metadata (RFC 9728 §5.1).
 */
public final class McpAuthException extends AuthException {
    private final boolean tokenPresented;

    /** @param tokenPresented false when the request carried no bearer token at all (RFC 6750 §3.1: no error code) */
    public McpAuthException(String message, boolean tokenPresented) {
        super(message);
        this.tokenPresented = tokenPresented;
    }

    public boolean tokenPresented() {
        return tokenPresented;
    }
}
