package dev.baton.runtime.durable;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.admission.IdempotencyKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Idempotency keys and durable turns: a leased turn remembers the key its request claimed, whoever finishes the turn
 * settles the key with its outcome, and a retry with that key whose turn's instance died waits for the turn taken over
 * to finish and replays its answer — instead of a 409 {@code idempotency_key_in_use} until the dead claim's lease runs
 * out, and then a second run of the turn.
 */
public final class DurableRetries {
    private static final Logger log = LoggerFactory.getLogger(DurableRetries.class);
    /** How often a waiting retry looks whether the taken-over turn settled its key. */
    private static final Duration POLL = Duration.ofMillis(200);

    private final Map<String, IdempotencyKeys.Claimed> byRequest = new ConcurrentHashMap<>();
    private final TurnLeaseStore leases;
    private final IdempotencyKeys keys;
    private final Duration longestWait;
    private final Clock clock;

    /** @param longestWait how long a retry waits at most for a taken-over turn (its lease and a turn's timeout) */
    public DurableRetries(TurnLeaseStore leases, IdempotencyKeys keys, Duration longestWait, Clock clock) {
        this.leases = leases;
        this.keys = keys;
        this.longestWait = longestWait;
        this.clock = clock;
    }

    /** The request {@code requestId} runs under {@code claimed}: its turn's lease remembers the key. */
    public void running(String requestId, IdempotencyKeys.Claimed claimed) {
        byRequest.put(requestId, claimed);
    }

    /** The request ended here (it settled its key itself). */
    public void ended(String requestId) {
        byRequest.remove(requestId);
    }

    /** The key the request claimed; null when it claimed none. */
    IdempotencyKeys.Claimed claimOf(String requestId) {
        return byRequest.get(requestId);
    }

    /** Settles the key of a turn finished after a takeover, as its own request would have. */
    void settle(LeasedTurn turn, TurnOutcome outcome) {
        if (turn.idempotencyKey() == null) return;
        IdempotencyKeys.Claimed claimed = new IdempotencyKeys.Claimed(turn.idempotencyOwner(), turn.idempotencyKey());
        try {
            if (outcome.succeeded() || outcome.awaitingApproval().isPresent()) keys.complete(claimed, outcome);
            else keys.release(claimed);
        } catch (RuntimeException e) {
            // its claim then expires with its lease, as a dead request's does
            log.warn("idempotency key of taken-over turn {} not settled: {}", turn.turnId(), e.toString());
        }
    }

    /**
     * Claims {@code key} again for a retry that found it in use, if the turn of the request holding it lost its
     * instance (its lease ran out, or another instance took it over): waits until that turn settled the key.
     *
     * @return the claim (a replay of the turn's answer, or the key when the turn failed); empty when the key's request
     *     still runs on a live instance, or started no leased turn
     */
    public Optional<IdempotencyKeys.Claim> afterTakeover(Principal caller, IdempotencyKey key, String target) {
        Optional<LeasedTurn> turn = leases.byIdempotencyKey(IdempotencyKeys.owner(caller), key.key());
        if (turn.isEmpty()) return Optional.empty();
        Instant now = clock.instant();
        if (turn.get().epoch() == 1 && turn.get().leasedUntil().isAfter(now)) return Optional.empty();
        long giveUpAt = System.nanoTime() + longestWait.toNanos();
        while (true) {
            try {
                return Optional.of(keys.claim(caller, key, target));
            } catch (RefusalException e) {
                if (!(e.refusal() instanceof Refusal.IdempotencyKeyInUse) || System.nanoTime() >= giveUpAt) throw e;
            }
            try {
                Thread.sleep(POLL); // the key is settled by another thread or instance: nothing to wait on here
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RefusalException(new Refusal.IdempotencyKeyInUse());
            }
        }
    }
}
