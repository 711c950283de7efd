package dev.baton.core.turn;

import dev.baton.core.model.ModelFailure;
import dev.baton.core.store.StoreUnavailableException;

/** The error codes a failed turn reports (the server maps each to an HTTP status in one place). */
final class TurnFailures {
    static final String CANCELLED = "cancelled";
    static final String INTERNAL = "internal";
    static final String MODEL_NOT_CONFIGURED = "model_not_configured";
    static final String DATABASE_UNAVAILABLE = "database_unavailable";

    private TurnFailures() {}

    static TurnEvent.Failed of(ModelFailure failure) {
        return switch (failure.kind()) {
            case RATE_LIMITED ->
                new TurnEvent.Failed(
                        "rate_limited",
                        "The model provider is rate limiting requests. Try again shortly.",
                        false,
                        failure.retryAfter());
            // a retryAfter here is the time left on an open circuit breaker
            case UNAVAILABLE ->
                new TurnEvent.Failed(
                        "model_unavailable", "The model is unavailable right now.", true, failure.retryAfter());
            case TIMEOUT -> new TurnEvent.Failed("model_timeout", "The model did not answer in time.", true);
            case AUTHENTICATION ->
                new TurnEvent.Failed("model_auth", "The model provider rejected Baton's credentials.", false);
            case BAD_REQUEST ->
                new TurnEvent.Failed("model_bad_request", "The model provider rejected the request.", false);
            case CANCELLED -> cancelled();
        };
    }

    static TurnEvent.Failed cancelled() {
        return new TurnEvent.Failed(CANCELLED, "The turn was cancelled.", false);
    }

    /** The agent's model names a provider this deployment has not configured: an operator's fix, not a retry. */
    static TurnEvent.Failed modelNotConfigured() {
        return new TurnEvent.Failed(
                MODEL_NOT_CONFIGURED, "This agent's model is not configured on the server; tell its operator.", false);
    }

    /** The store could not be reached: nothing is wrong with the request, so the client may retry it shortly. */
    static TurnEvent.Failed databaseUnavailable(StoreUnavailableException e) {
        return new TurnEvent.Failed(
                DATABASE_UNAVAILABLE,
                "The conversation could not be saved: the database is unavailable. Try again shortly.",
                true,
                e.retryAfter());
    }

    static TurnEvent.Failed internal() {
        return new TurnEvent.Failed(INTERNAL, "Something went wrong while answering. Please try again.", false);
    }
}
