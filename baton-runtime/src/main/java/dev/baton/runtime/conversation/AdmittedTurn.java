package dev.baton.runtime.conversation;

import dev.baton.core.conversation.Session;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.admission.RateDecision;
import java.util.Objects;

/**
 * A turn that passed admission and is about to run.
 *
 * @param session the session it runs in (new for a one-shot chat)
 * @param rate what is left of the caller's rate limits, for front doors that report it
 * @param cancellation stops the turn (a streaming client that went away, a user's stop button)
 */
public record AdmittedTurn(Session session, RateDecision rate, Cancellation cancellation) {
    public AdmittedTurn {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(rate, "rate");
        Objects.requireNonNull(cancellation, "cancellation");
    }
}
