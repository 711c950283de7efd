package dev.baton.server.limits;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A 429: a rate limit ({@code rate_limited}) or a budget ({@code budget_exceeded}) refused the message. The server
 * answers it with {@code Retry-After} and the {@code RateLimit}/{@code RateLimit-Policy} headers it carries.
 */
public final class LimitExceeded extends RuntimeException {
    public static final String RATE_LIMITED = "rate_limited";
    public static final String BUDGET_EXCEEDED = "budget_exceeded";

    private final String code;
    private final Duration retryAfter;
    private final transient Map<String, String> headers;

    public LimitExceeded(String code, String message, Duration retryAfter, Map<String, String> headers) {
        super(message, null, false, false);
        this.code = Objects.requireNonNull(code, "code");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
        this.headers = Map.copyOf(headers);
    }

    public int status() {
        return 429;
    }

    public String code() {
        return code;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    /** Response headers besides {@code Retry-After}. */
    public Map<String, String> headers() {
        return headers;
    }
}
