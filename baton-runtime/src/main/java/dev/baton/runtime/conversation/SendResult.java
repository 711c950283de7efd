package dev.baton.runtime.conversation;

import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.admission.RateDecision;
import java.util.Objects;

/** What sending a message came to. Refusals are not results: they are thrown as a {@code RefusalException}. */
public sealed interface SendResult {

    /**
     * The turn ran (it may still have failed: see {@link TurnOutcome#failure()}).
     *
     * @param session the session it ran in
     * @param rate what is left of the caller's rate limits
     */
    record Ran(Session session, TurnOutcome outcome, RateDecision rate) implements SendResult {
        public Ran {
            Objects.requireNonNull(session, "session");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(rate, "rate");
        }
    }

    /**
     * The same request (same idempotency key and content) already finished: this is its turn's stored outcome, and
     * nothing ran. A front door answers it as it answers a fresh outcome (the session is the outcome's messages').
     */
    record Replayed(TurnOutcome outcome) implements SendResult {
        public Replayed {
            Objects.requireNonNull(outcome, "outcome");
        }
    }
}
