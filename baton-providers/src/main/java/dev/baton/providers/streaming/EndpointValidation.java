package dev.baton.providers.streaming;

import java.net.URI;
import java.time.Duration;

/** The checks every provider config makes on where it sends calls and how long one may take. */
public final class EndpointValidation {

    private EndpointValidation() {}

    /**
     * @param field the config field named in the error
     * @throws IllegalArgumentException when {@code url} is not an http(s) URL
     */
    public static void requireHttpUrl(String url, String field) {
        var scheme = URI.create(url).getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException(field + " must be an http(s) URL, got " + url);
        }
    }

    /**
     * @return {@code timeout}, or {@code fallback} when it is null
     * @throws IllegalArgumentException when the result is not positive
     */
    public static Duration requestTimeout(Duration timeout, Duration fallback) {
        var result = timeout == null ? fallback : timeout;
        if (result.isNegative() || result.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive");
        }
        return result;
    }
}
