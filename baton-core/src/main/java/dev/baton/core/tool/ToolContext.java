package dev.baton.core.tool;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.Cancellation;
import java.time.Instant;
import java.util.Objects;

/**
 * What every tool call receives besides its arguments: who is calling, in which session with which agent, until when,
 * and a switch that says the turn was cancelled.
 *
 * @param agentId the agent of the turn that made the call; null when no agent did (a tool called directly)
 */
public record ToolContext(
        Principal principal, String sessionId, Instant deadline, Cancellation cancellation, String agentId) {
    public ToolContext {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(cancellation, "cancellation");
    }

    /** A call made by no agent. */
    public ToolContext(Principal principal, String sessionId, Instant deadline, Cancellation cancellation) {
        this(principal, sessionId, deadline, cancellation, null);
    }
}
