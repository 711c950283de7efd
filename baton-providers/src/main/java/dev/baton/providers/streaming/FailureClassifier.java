package dev.baton.providers.streaming;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * Maps whatever a provider call threw to a {@link ModelFailure} grouped by what the caller does next. The
 * provider name goes into messages so that logs say which upstream failed; bodies are shortened and never
 * contain the prompt.
 */
public final class FailureClassifier {

    private final String provider;
    private final Clock clock;

    public FailureClassifier(String provider, Clock clock) {
        this.provider = provider;
        this.clock = clock;
    }

    /** A failure reported by the stream after the request was sent. */
    public ModelFailure classify(Throwable error) {
        for (var t = error; t != null; t = t.getCause()) {
            if (t instanceof ModelFailure failure) {
                return failure;
            }
            if (t instanceof ProviderHttpException http) {
                var retryAfter = http.retryAfter(clock.instant()).orElse(null);
                if (http.keyRejected()) {
                    var message = provider + " answered " + http.statusCode() + ", the key was rejected: "
                            + http.getMessage();
                    return new ModelFailure(Kind.AUTHENTICATION, message, null, error);
                }
                return byStatus(http.statusCode(), http.getMessage(), retryAfter, error);
            }
        }
        for (var t = error; t != null; t = t.getCause()) {
            if (t instanceof HttpException http) {
                return byStatus(http.statusCode(), http.getMessage(), null, error);
            }
            if (t instanceof JsonProcessingException) {
                return new ModelFailure(Kind.UNAVAILABLE, provider + " sent a malformed stream chunk", null, error);
            }
            if (t instanceof IOException) {
                var what = t.getClass().getSimpleName();
                return new ModelFailure(Kind.UNAVAILABLE, provider + " connection failed: " + what, null, error);
            }
        }
        // LangChain4j's typed exceptions, for failures it classified without an HTTP status of ours
        return switch (error) {
            case RateLimitException e -> new ModelFailure(Kind.RATE_LIMITED, provider + " rate limit", null, error);
            case AuthenticationException e ->
                new ModelFailure(Kind.AUTHENTICATION, provider + " rejected the credentials", null, error);
            case InvalidRequestException e -> badRequest(error);
            case ModelNotFoundException e -> badRequest(error);
            case UnsupportedFeatureException e -> badRequest(error);
            default -> new ModelFailure(Kind.UNAVAILABLE, provider + " stream failed: " + summary(error), null, error);
        };
    }

    /** A failure thrown while the request was still being built: our input, not the provider, is at fault. */
    public ModelFailure classifyBeforeSending(RuntimeException error) {
        var message = provider + " request could not be built: " + summary(error);
        return new ModelFailure(Kind.BAD_REQUEST, message, null, error);
    }

    public ModelFailure cancelled() {
        return new ModelFailure(Kind.CANCELLED, provider + " call cancelled");
    }

    public ModelFailure timedOut(Duration limit) {
        return new ModelFailure(Kind.TIMEOUT, provider + " gave no complete answer within " + limit);
    }

    public ModelFailure cutShort() {
        return new ModelFailure(Kind.UNAVAILABLE, provider + " stream ended before the response was complete");
    }

    private ModelFailure byStatus(int status, String body, Duration retryAfter, Throwable cause) {
        var message = provider + " answered " + status + (body == null || body.isBlank() ? "" : ": " + body);
        Kind kind;
        if (status == 429) {
            kind = Kind.RATE_LIMITED;
        } else if (status == 401 || status == 403) {
            kind = Kind.AUTHENTICATION;
        } else if (status == 408) {
            kind = Kind.TIMEOUT;
        } else if (status >= 400 && status < 500) {
            kind = Kind.BAD_REQUEST;
        } else {
            kind = Kind.UNAVAILABLE;
        }
        return new ModelFailure(kind, message, kind == Kind.RATE_LIMITED ? retryAfter : null, cause);
    }

    private ModelFailure badRequest(Throwable error) {
        return new ModelFailure(Kind.BAD_REQUEST, provider + " rejected the request: " + summary(error), null, error);
    }

    private static String summary(Throwable error) {
        var message = error.getMessage();
        return message == null ? error.getClass().getSimpleName() : message;
    }
}
