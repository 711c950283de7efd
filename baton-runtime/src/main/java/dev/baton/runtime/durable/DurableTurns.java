package dev.baton.runtime.durable;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.admission.IdempotencyKeys;
import dev.baton.runtime.turn.TurnDispatcher;
import java.util.Optional;

/**
 * What sending a message does about durable turns: before its turn, an orphaned turn of the session goes on first
 * ({@link OrphanedTurns#beforeTurn}); its idempotency key is remembered with its turn's lease, and a retry of a
 * request whose turn was taken over waits for it ({@link DurableRetries}).
 */
public final class DurableTurns {
    private final OrphanedTurns orphans;
    /** Null when no idempotency keys are kept. */
    private final DurableRetries retries;

    public DurableTurns(OrphanedTurns orphans, DurableRetries retries) {
        this.orphans = orphans;
        this.retries = retries;
    }

    /** See {@link OrphanedTurns#beforeTurn}. */
    public void beforeTurn(TurnDispatcher.SessionLock lock, String sessionId) {
        orphans.beforeTurn(lock, sessionId);
    }

    /** The request runs under {@code claimed}. */
    public void running(String requestId, IdempotencyKeys.Claimed claimed) {
        if (retries != null) retries.running(requestId, claimed);
    }

    /** The request ended here. */
    public void ended(String requestId) {
        if (retries != null) retries.ended(requestId);
    }

    /** The request settled its key here: retries waiting here for it look again at once. */
    public void settled() {
        if (retries != null) retries.settled();
    }

    /** See {@link DurableRetries#awaitTurn}; empty when no keys are kept. */
    public Optional<IdempotencyKeys.Claim> awaitTurn(Principal caller, IdempotencyKey key, String target) {
        return retries == null ? Optional.empty() : retries.awaitTurn(caller, key, target);
    }
}
