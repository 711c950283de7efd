package dev.baton.core.turn;

import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The error codes a failed turn reports (the server maps each to an HTTP status in one place). */
final class TurnFailures {
    static final String CANCELLED = "cancelled";
    static final String INTERNAL = "internal";
    static final String MODEL_NOT_CONFIGURED = "model_not_configured";
    static final String DATABASE_UNAVAILABLE = "database_unavailable";

    private static final Logger log = LoggerFactory.getLogger(TurnRunner.class);

    private TurnFailures() {}

    /** How a turn a failure interrupted ends: the status its answer is saved with and what the client is told. */
    record Interruption(MessageStatus status, TurnEvent.Failed failure) {}

    /** Classifies what interrupted a turn (cancelled, a model failure, the database, anything unexpected) and logs it. */
    static Interruption interruption(RuntimeException e, TurnRequest request, TurnProgress progress) {
        boolean cancelled = request.cancellation().isCancelled();
        if (e instanceof ModelFailure failure) {
            if (cancelled || failure.kind() == ModelFailure.Kind.CANCELLED)
                return new Interruption(MessageStatus.CANCELLED, cancelled());
            // the call itself logged model_call_failed with its model, kind and time (ModelStreamer)
            if (failure.kind() == ModelFailure.Kind.TIMEOUT && progress.deadlinePassed()) {
                // the call's timeout was what was left of the request's: this is the request's deadline, which the
                // dispatcher's timer reports as request_timeout too, whichever of the two fires first
                return new Interruption(
                        MessageStatus.CANCELLED,
                        TurnEvent.Failed.requestTimeout(request.agent().limits().requestTimeout()));
            }
            return new Interruption(MessageStatus.INCOMPLETE, of(failure));
        }
        if (e instanceof StoreUnavailableException unavailable && !cancelled) {
            log.warn("request {}: turn stopped, the database is unavailable: {}", request.requestId(), e.getMessage());
            return new Interruption(MessageStatus.INCOMPLETE, databaseUnavailable(unavailable));
        }
        if (e instanceof TurnSteps.TurnCancelled || cancelled)
            return new Interruption(MessageStatus.CANCELLED, cancelled());
        log.error("request {}: turn failed", request.requestId(), e);
        return new Interruption(MessageStatus.INCOMPLETE, internal());
    }

    /** The turn goes on on another instance, which took it over when this one stopped renewing its lease. */
    static TurnEvent.Failed takenOver() {
        return new TurnEvent.Failed(
                "turn_taken_over",
                "Another server took this turn over and is finishing it. Follow the turn's stream to see its answer.",
                true);
    }

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
