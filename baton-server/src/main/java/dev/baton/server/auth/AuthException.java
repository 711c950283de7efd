package dev.baton.server.auth;

/** A request whose credentials are missing or not acceptable (401). The message is safe to return. */
public final class AuthException extends RuntimeException {
    public AuthException(String message) {
        super(message);
    }
}
