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
 * @param idempotencyKey the same for every attempt of this call of this turn, also when another instance runs the call
 *     again after taking the turn over ({@link dev.baton.core.id.CallKeys#toolCall}): a remote tool passes it on so its server can run the
 *     call once; null when no turn made the call
 */
public record ToolContext(
        Principal principal,
        String sessionId,
        Instant deadline,
        Cancellation cancellation,
        String agentId,
        String idempotencyKey) {
    public ToolContext {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(cancellation, "cancellation");
    }

    /** A call made outside a turn's step (no idempotency key). */
    public ToolContext(
            Principal principal, String sessionId, Instant deadline, Cancellation cancellation, String agentId) {
        this(principal, sessionId, deadline, cancellation, agentId, null);
    }

    /** A call made by no agent. */
    public ToolContext(Principal principal, String sessionId, Instant deadline, Cancellation cancellation) {
        this(principal, sessionId, deadline, cancellation, null, null);
    }
}
