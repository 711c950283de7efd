package dev.baton.runtime.durable;

import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.admission.IdempotencyKeys;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Idempotency keys and durable turns: a leased turn remembers the key its request claimed, whoever finishes the turn
 * settles the key with its outcome, and a retry that finds the key in use by a leased turn waits for that turn's
 * outcome and replays it — whether the turn's instance is alive and finishes it, or dies and the turn is taken over
 * (here or elsewhere) — instead of a 409 {@code idempotency_key_in_use} until the dead claim's lease runs out, and
 * then a second run of the turn.
 *
 * <p>A waiting retry holds no database connection: it looks at the key once per heartbeat (another instance settles it
 * at most that often noticeably: its sweep takes a turn over on a heartbeat), and at once when a key is settled on
 * this instance.
 */
public final class DurableRetries {
    private static final Logger log = LoggerFactory.getLogger(DurableRetries.class);
    /**
     * Looks that may find no leased turn behind the key before the retry stops waiting: its request is just before
     * or after its turn (its lease opens with its user message; its key is settled just after the lease ends), or it
     * died before its user message was stored, and then nothing will settle the key before its claim's lease runs out.
     */
    private static final int LOOKS_WITHOUT_TURN = 2;

    private final Map<String, IdempotencyKeys.Claimed> byRequest = new ConcurrentHashMap<>();
    private final TurnLeaseStore leases;
    private final IdempotencyKeys keys;
    private final Duration longestWait;
    private final Duration look;
    private final KeySettlements settlements = new KeySettlements();

    /**
     * @param longestWait how long a retry waits at most for the turn holding its key (a turn's lease and its timeout)
     * @param look how often a waiting retry looks whether the key was settled elsewhere: the heartbeat
     */
    public DurableRetries(TurnLeaseStore leases, IdempotencyKeys keys, Duration longestWait, Duration look) {
        this.leases = leases;
        this.keys = keys;
        this.longestWait = longestWait;
        this.look = look;
    }

    /** The request {@code requestId} runs under {@code claimed}: its turn's lease remembers the key. */
    public void running(String requestId, IdempotencyKeys.Claimed claimed) {
        byRequest.put(requestId, claimed);
    }

    /** The request ended here. */
    public void ended(String requestId) {
        byRequest.remove(requestId);
    }

    /** A request of this instance settled its key: retries waiting here look again at once. */
    public void settled() {
        settlements.signal();
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
        } finally {
            settlements.signal();
        }
    }

    /**
     * Claims {@code key} again for a retry that found it in use, once the leased turn of the request holding it has
     * settled it: that turn may still run on its live instance, or its instance died and the turn is (or will be)
     * taken over. The wait ends with the turn's outcome, at the latest after {@code longestWait}.
     *
     * @return the claim (a replay of the turn's answer; the key itself when the turn failed, so the retry runs); empty
     *     when no leased turn holds the key (its request is not running a turn, or died before its turn was leased)
     * @throws RefusalException {@link Refusal.IdempotencyKeyInUse} when the turn did not settle the key in time;
     *     {@link Refusal.IdempotencyKeyReused} as {@link IdempotencyKeys#claim}
     */
    public Optional<IdempotencyKeys.Claim> awaitTurn(Principal caller, IdempotencyKey key, String target) {
        String owner = IdempotencyKeys.owner(caller);
        long giveUpAt = System.nanoTime() + longestWait.toNanos();
        int withoutTurn = 0;
        while (true) {
            long seen = settlements.current();
            if (leases.byIdempotencyKey(owner, key.key()).isPresent()) withoutTurn = 0;
            else if (++withoutTurn > LOOKS_WITHOUT_TURN) return Optional.empty();
            long left = giveUpAt - System.nanoTime();
            if (left <= 0) throw new RefusalException(new Refusal.IdempotencyKeyInUse());
            if (!settlements.awaitAfter(seen, Math.min(left, look.toNanos()))) {
                throw new RefusalException(new Refusal.IdempotencyKeyInUse()); // interrupted: the request ends
            }
            try {
                return Optional.of(keys.claim(caller, key, target));
            } catch (RefusalException e) {
                if (!(e.refusal() instanceof Refusal.IdempotencyKeyInUse)) throw e;
            }
        }
    }
}
