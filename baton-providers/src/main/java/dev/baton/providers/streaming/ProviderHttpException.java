package dev.baton.providers.streaming;

import dev.langchain4j.exception.HttpException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A provider answered with a non-2xx status. Unlike LangChain4j's own {@link HttpException} it keeps the
 * response headers, because a 429's {@code Retry-After} is what the caller needs to tell its client.
 */
public final class ProviderHttpException extends HttpException {

    private static final int BODY_EXCERPT_CHARS = 500;

    private final Map<String, List<String>> headers;

    public ProviderHttpException(int statusCode, String body, Map<String, List<String>> headers) {
        super(statusCode, excerpt(body));
        var caseInsensitive = new TreeMap<String, List<String>>(String.CASE_INSENSITIVE_ORDER);
        if (headers != null) {
            headers.forEach((name, values) -> caseInsensitive.put(name, List.copyOf(values)));
        }
        this.headers = caseInsensitive;
    }

    /** The first value of a response header, matched without regard to case. */
    public Optional<String> header(String name) {
        var values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /**
     * How long the provider asked us to wait: OpenAI's {@code retry-after-ms} when present (it is more
     * precise), else the standard {@code Retry-After} as delta-seconds or an HTTP date.
     */
    public Optional<Duration> retryAfter(Instant now) {
        var millis = header("retry-after-ms").flatMap(ProviderHttpException::parseDecimal);
        if (millis.isPresent()) {
            return Optional.of(Duration.ofMillis(Math.round(millis.get())));
        }
        return header("Retry-After").flatMap(value -> parseRetryAfter(value, now));
    }

    static Optional<Duration> parseRetryAfter(String value, Instant now) {
        var trimmed = value.trim();
        var seconds = parseDecimal(trimmed);
        if (seconds.isPresent()) {
            return Optional.of(Duration.ofMillis(Math.round(seconds.get() * 1000)));
        }
        try {
            var at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
            var wait = Duration.between(now, at);
            return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<Double> parseDecimal(String value) {
        try {
            double parsed = Double.parseDouble(value.trim());
            return parsed >= 0 && Double.isFinite(parsed) ? Optional.of(parsed) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String excerpt(String body) {
        if (body == null) {
            return "";
        }
        return body.length() <= BODY_EXCERPT_CHARS ? body : body.substring(0, BODY_EXCERPT_CHARS) + "…";
    }
}
