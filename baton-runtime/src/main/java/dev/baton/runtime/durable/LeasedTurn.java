package dev.baton.runtime.durable;

import dev.baton.core.conversation.TurnFence;
import java.time.Instant;
import java.util.Objects;

/**
 * A running turn's row: whose it is, who runs it under which lease, and its state after its last step.
 *
 * @param principal who the turn runs for, as {@link PrincipalJson} text: a takeover runs it as that user
 * @param state the turn's state after its last step, as {@code TurnStateCodec} JSON
 * @param idempotencyOwner the owner of the idempotency key the request that started the turn claimed; null for none
 * @param idempotencyKey that key, settled with the turn's outcome by whoever finishes it; null for none
 */
public record LeasedTurn(
        String turnId,
        long epoch,
        String tenantId,
        String userId,
        String sessionId,
        String requestId,
        String agentId,
        String principal,
        InstanceIdentity owner,
        Instant leasedUntil,
        Instant startedAt,
        String state,
        String idempotencyOwner,
        String idempotencyKey) {
    public LeasedTurn {
        Objects.requireNonNull(turnId, "turnId");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(leasedUntil, "leasedUntil");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(state, "state");
    }

    /** The fence this lease's writes carry. */
    public TurnFence fence() {
        return new TurnFence(turnId, epoch);
    }
}
