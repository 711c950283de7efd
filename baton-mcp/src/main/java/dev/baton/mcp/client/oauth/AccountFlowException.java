package dev.baton.mcp.client.oauth;

/**
 * Why connecting, or using, a user's account on a server did not work, grouped by what the caller does next; the
 * HTTP mapping is the routes' (unknown server 404, a callback that does not belong 400, the provider 502).
 */
public final class AccountFlowException extends RuntimeException {

    public enum Kind {
        /** No server of that name has {@code auth: oauth}. */
        UNKNOWN_SERVER,
        /** The callback's state is missing, changed, expired, or was started by another browser or user. */
        BAD_STATE,
        /** The callback's {@code iss} is not the authorization server the flow was started with (RFC 9207). */
        ISSUER_MISMATCH,
        /** The user, or the authorization server, said no (the callback carried an error). */
        DENIED,
        /** The authorization server could not be found or failed a request. */
        PROVIDER_FAILED
    }

    private final Kind kind;

    public AccountFlowException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
