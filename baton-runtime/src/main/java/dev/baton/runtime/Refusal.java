package dev.baton.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Why the runtime would not do what a caller asked, grouped by what the caller does next. Every front door
 * translates these into its own wire in one place (the HTTP API: {@code dev.baton.server.http.ErrorResponses}); the
 * runtime itself never speaks HTTP.
 *
 * <p>Each refusal has a stable {@link #code()} (the {@code error.code} of the HTTP API) and a sentence for a person.
 */
public sealed interface Refusal {

    /** A stable machine-readable code, e.g. {@code rate_limited}. */
    String code();

    /** What went wrong, in a sentence a user can act on. */
    String message();

    /**
     * A rate limit is used up: retry after {@code retryAfter}.
     *
     * @param quotaHeaders the quota the caller hit, as {@code RateLimit} / {@code RateLimit-Policy} style fields for
     *     front doors that report them (may be empty)
     */
    record RateLimited(String message, Duration retryAfter, Map<String, String> quotaHeaders) implements Refusal {
        public RateLimited {
            Objects.requireNonNull(retryAfter, "retryAfter");
            quotaHeaders = Map.copyOf(quotaHeaders);
        }

        @Override
        public String code() {
            return "rate_limited";
        }
    }

    /** A spending budget of the user or the tenant is used up until {@code retryAfter} has passed. */
    record BudgetExceeded(String message, Duration retryAfter) implements Refusal {
        public BudgetExceeded {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }

        @Override
        public String code() {
            return "budget_exceeded";
        }
    }

    /** Another turn is running in this session (on any instance); retry when it ends or cancel it. */
    record SessionBusy() implements Refusal {
        @Override
        public String code() {
            return "turn_in_progress";
        }

        @Override
        public String message() {
            return "a turn is already running in this session";
        }
    }

    /** The session is completed; start a new one. */
    record SessionCompleted(String message) implements Refusal {
        @Override
        public String code() {
            return "session_completed";
        }
    }

    /** The session's agent is no longer configured. */
    record AgentUnavailable(String message) implements Refusal {
        @Override
        public String code() {
            return "agent_unavailable";
        }
    }

    /**
     * Nothing by that id exists for this caller. Another user's session is reported exactly like a missing one.
     *
     * @param what the kind of thing, e.g. {@code session}
     */
    record NotFound(String what) implements Refusal {
        @Override
        public String code() {
            return "not_found";
        }

        @Override
        public String message() {
            return what + " not found";
        }
    }

    /** The caller is known but may not do this (a role, a class, a closed assignment window). */
    record Forbidden(String message) implements Refusal {
        @Override
        public String code() {
            return "forbidden";
        }
    }

    /**
     * The request is malformed: a missing or mistyped field, a parameter out of range, a message that breaks the
     * input rules.
     *
     * @param code {@code invalid_request}, or a more precise code ({@code message_too_long}, {@code invalid_content})
     */
    record InvalidInput(String code, String message) implements Refusal {
        public InvalidInput {
            Objects.requireNonNull(code, "code");
        }

        public InvalidInput(String message) {
            this("invalid_request", message);
        }
    }

    /** The request is well formed but names values that cannot go together. */
    record InvalidValue(String message) implements Refusal {
        @Override
        public String code() {
            return "invalid_value";
        }
    }

    /** The idempotency key was used with another request, or for another target (session or one-shot chat). */
    record IdempotencyKeyReused(String message) implements Refusal {
        @Override
        public String code() {
            return "idempotency_key_reused";
        }
    }

    /** A request with this idempotency key is still running; retry when it ends. */
    record IdempotencyKeyInUse() implements Refusal {
        @Override
        public String code() {
            return "idempotency_key_in_use";
        }

        @Override
        public String message() {
            return "a request with this Idempotency-Key is still running; retry when it ends";
        }
    }

    /**
     * The tool call named in a decision is not waiting for one: it was already decided, a new message superseded it,
     * it expired, or nothing in the session waits for approval. Nothing changed; reload the session.
     *
     * @param code {@code approval_already_decided}, {@code approval_superseded}, {@code approval_expired} or
     *     {@code no_pending_approval}
     */
    record ApprovalNotPending(String code, String message) implements Refusal {
        public ApprovalNotPending {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }
    }

    /** Arguments edited in an approval do not match the tool's schema: nothing was decided; fix them and retry. */
    record InvalidArguments(String message) implements Refusal {
        @Override
        public String code() {
            return "invalid_arguments";
        }
    }
}
