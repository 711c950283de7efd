package dev.baton.providers.anthropic;

import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.langchain4j.model.anthropic.internal.api.AnthropicStreamingException;

/**
 * Gives an in-stream {@code event: error} the kind its type names. The shared classifier sees only "the stream
 * failed" (UNAVAILABLE); Anthropic says why: {@code overloaded_error} and {@code api_error} stay UNAVAILABLE,
 * but a {@code rate_limit_error} is RATE_LIMITED and an {@code invalid_request_error} BAD_REQUEST, whose
 * retries would never help.
 */
final class AnthropicErrors {

    private AnthropicErrors() {}

    static ModelFailure refine(ModelFailure failure, String provider) {
        for (Throwable t = failure.getCause(); t != null; t = t.getCause()) {
            if (t instanceof AnthropicStreamingException streamed) {
                var kind = kindOf(streamed.type());
                var message = provider + " reported " + streamed.type() + " mid-stream: " + streamed.getMessage();
                return new ModelFailure(kind, message, null, failure);
            }
        }
        return failure;
    }

    static Kind kindOf(String type) {
        if (type == null) {
            return Kind.UNAVAILABLE;
        }
        return switch (type) {
            case "rate_limit_error" -> Kind.RATE_LIMITED;
            case "authentication_error", "permission_error" -> Kind.AUTHENTICATION;
            case "invalid_request_error", "not_found_error", "request_too_large" -> Kind.BAD_REQUEST;
            case "timeout_error" -> Kind.TIMEOUT;
            default -> Kind.UNAVAILABLE;
        };
    }
}
