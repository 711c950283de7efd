package dev.baton.spring.web;

/** A request without an authenticated user: answered 401 {@code unauthorized} with {@code WWW-Authenticate: Bearer}. */
public final class UnauthenticatedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnauthenticatedException(String message) {
        super(message);
    }
}
