package dev.baton.providers.streaming;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, List<String>> headers;
    private final Duration bodyRetryDelay;
    private final boolean keyRejected;

    public ProviderHttpException(int statusCode, String body, Map<String, List<String>> headers) {
        super(statusCode, excerpt(body));
        this.bodyRetryDelay = googleRetryDelay(body).orElse(null);
        this.keyRejected = body != null && body.contains("\"API_KEY_INVALID\"");
        var caseInsensitive = new TreeMap<String, List<String>>(String.CASE_INSENSITIVE_ORDER);
        if (headers != null) {
            headers.forEach((name, values) -> caseInsensitive.put(name, List.copyOf(values)));
        }
        this.headers = caseInsensitive;
    }

    /**
     * Whether the body says the API key was refused though the status does not: Gemini answers a wrong key with
     * {@code 400 INVALID_ARGUMENT} and the reason {@code API_KEY_INVALID}.
     */
    public boolean keyRejected() {
        return keyRejected;
    }

    /** The first value of a response header, matched without regard to case. */
    public Optional<String> header(String name) {
        var values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /**
     * How long the provider asked us to wait: OpenAI's {@code retry-after-ms} when present (it is more
     * precise), else the standard {@code Retry-After} as delta-seconds or an HTTP date, else the {@code retryDelay}
     * of a {@code google.rpc.RetryInfo} in the body (Gemini sends its wait there, with no header).
     */
    public Optional<Duration> retryAfter(Instant now) {
        var millis = header("retry-after-ms").flatMap(ProviderHttpException::parseDecimal);
        if (millis.isPresent()) {
            return Optional.of(Duration.ofMillis(Math.round(millis.get())));
        }
        return header("Retry-After")
                .flatMap(value -> parseRetryAfter(value, now))
                .or(() -> Optional.ofNullable(bodyRetryDelay));
    }

    /**
     * The wait a Google error body names: {@code [{"error": {..., "details": [{"@type":
     * "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "26s"}]}}]} (an array on Gemini's OpenAI-compatible
     * endpoint, an object on its native one). The whole body is read, not the excerpt: the detail often comes after
     * a long message and quota details.
     */
    static Optional<Duration> googleRetryDelay(String body) {
        if (body == null || !body.contains("retryDelay")) {
            return Optional.empty();
        }
        try {
            JsonNode delay = JSON.readTree(body).findValue("retryDelay");
            if (delay == null || !delay.isTextual() || !delay.asText().endsWith("s")) {
                return Optional.empty();
            }
            String seconds = delay.asText().substring(0, delay.asText().length() - 1);
            return parseDecimal(seconds).map(s -> Duration.ofMillis(Math.round(s * 1000)));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
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
