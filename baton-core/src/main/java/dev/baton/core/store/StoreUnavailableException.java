package dev.baton.core.store;

import java.time.Duration;
import java.util.Objects;

/**
 * A store could not be reached or could not write at all (the database is down, its connections are refused or time
 * out, its file became unwritable) — as opposed to a store that answered and refused one statement. Whatever asked
 * may try again after {@link #retryAfter()}: nothing was written. Stores on a database throw it; the runtime ends a
 * turn with a retryable {@code database_unavailable} error and the HTTP API answers 503 with {@code Retry-After}.
 */
public class StoreUnavailableException extends RuntimeException {
    private final Duration retryAfter;

    /** @param retryAfter when a retry may succeed (at least one second is advised to callers) */
    public StoreUnavailableException(String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
