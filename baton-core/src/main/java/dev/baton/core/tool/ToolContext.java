package dev.baton.core.tool;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.Cancellation;
import java.time.Instant;
import java.util.Objects;

/**
 * What every tool call receives besides its arguments: who is calling, in which session, until when, and
 * a switch that says the turn was cancelled.
 */
public record ToolContext(Principal principal, String sessionId, Instant deadline, Cancellation cancellation) {
    public ToolContext {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(cancellation, "cancellation");
    }
}
