package dev.baton.server.auth;

/** A request whose credentials are missing or not acceptable (401). The message is safe to return. */
public sealed class AuthException extends RuntimeException permits McpAuthException {
    public AuthException(String message) {
        super(message);
    }
}
