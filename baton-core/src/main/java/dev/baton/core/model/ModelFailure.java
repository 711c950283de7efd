package dev.baton.core.model;

import java.time.Duration;

/**
 * A model call that failed, grouped by what the caller does next. The server maps {@link Kind} to an HTTP
 * status or an SSE error event in exactly one place.
 */
public final class ModelFailure extends RuntimeException {

    public enum Kind {
        /** The provider said 429; not retried, the client is told when to come back. */
        RATE_LIMITED(false),
        /** 5xx, connection refused or reset, a broken stream: worth one retry. */
        UNAVAILABLE(true),
        /** No answer (or no first token) in time. */
        TIMEOUT(true),
        /** Bad key or configuration: retrying never helps. */
        AUTHENTICATION(false),
        /** The provider rejected the request itself (context too long, bad parameters). */
        BAD_REQUEST(false),
        /** The turn was cancelled while the call ran. */
        CANCELLED(false);

        private final boolean retryable;

        Kind(boolean retryable) {
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }

    private final Kind kind;
    private final Duration retryAfter;

    public ModelFailure(Kind kind, String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.retryAfter = retryAfter;
    }

    public ModelFailure(Kind kind, String message) {
        this(kind, message, null, null);
    }

    public Kind kind() {
        return kind;
    }

    /** The provider's Retry-After, when it gave one. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
