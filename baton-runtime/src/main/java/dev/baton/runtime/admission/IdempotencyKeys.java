package dev.baton.runtime.admission;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.IdempotencyStore;
import dev.baton.core.conversation.IdempotencyStore.StoredResponse;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.stream.TurnOutcomeCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * Idempotency keys: a request claims its key before its turn runs, so a retry that arrives while the first attempt
 * still runs is refused instead of running the turn twice; the claim then completes with the turn's outcome to replay,
 * or is released when the attempt produced nothing worth replaying.
 *
 * <p>A key completed by an earlier version holds the response its front door rendered, not an outcome: it is read
 * tolerantly, as a key that cannot be replayed ({@link Refusal.IdempotencyKeyReused}, never a second run), until the
 * expiry forgets it with the rest.
 *
 * <p>Keys belong to a caller, which is a tenant and a user together (the same subject in two tenants shares nothing),
 * and are bound to their target (a session, or a one-shot chat): the same key and body sent elsewhere is refused as
 * reused, never answered with the first target's reply.
 */
public final class IdempotencyKeys {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(IdempotencyKeys.class);
    /**
     * The status stored with a completed key's outcome. Any but {@link IdempotencyStore#IN_PROGRESS} would do; 200 is
     * what front doors stored with their rendered responses before the runtime kept outcomes.
     */
    private static final int COMPLETED = 200;
    /** The lease of a claim when none is given: longer than any request may run by default. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(10);

    private final IdempotencyStore store;
    private final Clock clock;
    private final Duration lease;

    public IdempotencyKeys(IdempotencyStore store, Clock clock) {
        this(store, clock, DEFAULT_LEASE);
    }

    /**
     * @param lease how long a claim holds its key without being settled: the longest a request may run plus a margin.
     *     A request settles its claim when it ends; one that is still in progress after its lease belonged to an
     *     instance that died (kill -9, a crash), and a retry takes it over and runs instead of waiting a day.
     */
    public IdempotencyKeys(IdempotencyStore store, Clock clock, Duration lease) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.lease = Objects.requireNonNull(lease, "lease");
        if (lease.isNegative() || lease.isZero()) throw new IllegalArgumentException("lease must be positive");
    }

    /** How long an unsettled claim holds its key. */
    public Duration lease() {
        return lease;
    }

    /** How a claim came out. */
    public sealed interface Claim {}

    /** The key is now this request's: complete or release it when the request ends. */
    public record Claimed(String owner, String key) implements Claim {}

    /** The same request already finished: answer with its turn's stored outcome and run nothing. */
    public record Replay(TurnOutcome outcome) implements Claim {
        public Replay {
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /**
     * Claims {@code key} for the caller's request to {@code target}, or finds the finished request to replay.
     *
     * @param target what the request acts on, e.g. {@code session:<id>} or {@code chat}
     * @throws RefusalException {@link Refusal.IdempotencyKeyReused} when the key came with another request or
     *     target; {@link Refusal.IdempotencyKeyInUse} while the first request still runs (or, if its instance died,
     *     until its claim's {@link #lease()} runs out)
     */
    public Claim claim(Principal caller, IdempotencyKey key, String target) {
        String owner = owner(caller);
        String requestHash = hash(target + "\n" + key.fingerprint());
        // two rounds: a claim released between our failed claim and our read is simply claimed again
        for (int round = 0; round < 2; round++) {
            Instant now = clock.instant();
            if (store.claim(owner, key.key(), requestHash, now, now.minus(lease))) return new Claimed(owner, key.key());
            Optional<StoredResponse> stored = store.find(owner, key.key());
            if (stored.isEmpty()) continue;
            if (!stored.get().requestHash().equals(requestHash)) {
                throw new RefusalException(new Refusal.IdempotencyKeyReused(
                        "this Idempotency-Key was used with a different request or for another target"));
            }
            if (stored.get().inProgress()) break;
            return new Replay(TurnOutcomeCodec.decode(stored.get().body())
                    .orElseThrow(() -> new RefusalException(new Refusal.IdempotencyKeyReused(
                            "this Idempotency-Key was answered by an earlier version of Baton, whose answer cannot be"
                                    + " replayed; send the request again with a new key"))));
        }
        throw new RefusalException(new Refusal.IdempotencyKeyInUse());
    }

    /**
     * Stores the finished request's turn outcome for replays, in the runtime's own encoding ({@link TurnOutcomeCodec}):
     * every front door renders a replay as it renders a fresh outcome.
     */
    public void complete(Claimed claimed, TurnOutcome outcome) {
        store.complete(claimed.owner(), claimed.key(), COMPLETED, TurnOutcomeCodec.encode(outcome));
    }

    /** Gives the key up: the request produced nothing worth replaying, so a retry may run. */
    public void release(Claimed claimed) {
        store.release(claimed.owner(), claimed.key());
    }

    /**
     * Gives the key up as soon as the store takes it: for a request that failed because its store was unavailable,
     * whose client will retry with the same key once it is back. Tried every {@code every} on a virtual thread, for at
     * most half the claim's lease — after the lease a retry takes the claim over anyway, and a release then could
     * remove the retry's claim.
     */
    public void releaseWhenPossible(Claimed claimed, Duration every) {
        long giveUpAt = System.nanoTime() + lease.dividedBy(2).toNanos();
        Thread.ofVirtual().name("idempotency-release").start(() -> {
            while (System.nanoTime() < giveUpAt) {
                try {
                    store.release(claimed.owner(), claimed.key());
                    return;
                } catch (RuntimeException e) {
                    try {
                        Thread.sleep(every); // pacing the retries of an unavailable store
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
            log.warn("idempotency key {} not released; its claim expires with its lease", claimed.key());
        });
    }

    /**
     * The store's owner of a caller's keys: tenant and user, length-prefixed so that no two (tenant, user) pairs
     * can produce the same owner whatever characters their ids contain.
     */
    public static String owner(Principal caller) {
        return caller.tenantId().length() + ":" + caller.tenantId() + ":" + caller.userId();
    }

    private static String hash(String raw) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(raw.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
