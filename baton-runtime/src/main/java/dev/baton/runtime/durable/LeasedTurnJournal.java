package dev.baton.runtime.durable;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.turn.TurnJournal;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnState;
import dev.baton.core.turn.TurnStateCodec;
import dev.baton.runtime.admission.IdempotencyKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases this instance's turns in a {@link TurnLeaseStore} and keeps them leased: {@link #heartbeat} renews every
 * lease held here in one write, and forgets those that ended (a turn's answer ends its lease in the answer's own
 * transaction, so the end of a turn costs no write here). A lease this instance could not end (the database was away) is ended at a later
 * heartbeat; until then it is renewed, so no other instance takes over a turn that already ended here.
 */
public final class LeasedTurnJournal implements TurnJournal {
    private static final Logger log = LoggerFactory.getLogger(LeasedTurnJournal.class);

    private final TurnLeaseStore store;
    private final InstanceIdentity self;
    private final Duration lease;
    private final Clock clock;
    /** The idempotency keys of running requests; null when none are kept. */
    private volatile DurableRetries retries;
    /** Leases held by turns running here, and leases of ended turns still to end in the store. */
    private final Set<TurnFence> held = ConcurrentHashMap.newKeySet();

    private final Set<TurnFence> toClose = ConcurrentHashMap.newKeySet();

    public LeasedTurnJournal(TurnLeaseStore store, InstanceIdentity self, Duration lease, Clock clock) {
        this.store = store;
        this.self = self;
        this.lease = lease;
        this.clock = clock;
    }

    /** Remembers, with each lease, the idempotency key its request claimed in {@code keys}; returns {@code keys}. */
    public DurableRetries keysFrom(DurableRetries keys) {
        this.retries = keys;
        return keys;
    }

    @Override
    public TurnFence open(TurnRequest request, TurnState start) {
        LeasedTurn turn = leased(request, start);
        try {
            store.open(turn);
        } catch (RuntimeException e) {
            // the turn runs as it would without leases: a crash re-runs it instead of resuming it
            log.warn(
                    "request {}: turn {} could not be leased, it runs unleased: {}",
                    request.requestId(),
                    start.turnId(),
                    e.toString());
            return null;
        }
        held.add(turn.fence());
        return turn.fence();
    }

    /**
     * Saves the user message and leases the turn in one transaction (on the JDBC store): a crash at any point after
     * leaves a lease that a takeover finds, and a retry of the request waits for it. When the lease could not be
     * written, the message is saved alone and the turn runs unleased, as {@link #open} leaves it.
     */
    @Override
    public Opened openWithUser(TurnRequest request, TurnState start, Supplier<Message> saveUser) {
        LeasedTurn turn = leased(request, start);
        AtomicReference<Message> saved = new AtomicReference<>();
        Message user;
        try {
            user = store.openAfter(
                    () -> {
                        saved.set(saveUser.get());
                        return saved.get();
                    },
                    turn);
        } catch (RuntimeException e) {
            // the message could not be saved: nothing is stored, the caller reports it
            if (saved.get() == null) throw e;
            // the lease could not be: the transaction rolled the message back with it
            log.warn(
                    "request {}: turn {} could not be leased, it runs unleased: {}",
                    request.requestId(),
                    start.turnId(),
                    e.toString());
            return new Opened(saveUser.get(), null);
        }
        held.add(turn.fence());
        return new Opened(user, turn.fence());
    }

    private LeasedTurn leased(TurnRequest request, TurnState start) {
        Instant now = clock.instant();
        DurableRetries r = retries;
        IdempotencyKeys.Claimed claimed = r == null ? null : r.claimOf(request.requestId());
        return new LeasedTurn(
                start.turnId(),
                1,
                request.principal().tenantId(),
                request.principal().userId(),
                request.session().id(),
                request.requestId(),
                request.agent().id(),
                PrincipalJson.encode(request.principal()),
                self,
                now.plus(lease),
                now,
                TurnStateCodec.encode(start),
                claimed == null ? null : claimed.owner(),
                claimed == null ? null : claimed.key());
    }

    /** Goes on with a turn taken over by this instance under {@code fence}, renewing its lease until it ends. */
    void adopt(TurnFence fence) {
        held.add(fence);
    }

    @Override
    public void close(TurnFence fence) {
        if (fence == null) return;
        try {
            store.close(fence);
            held.remove(fence);
        } catch (RuntimeException e) {
            toClose.add(fence);
            log.warn("turn {}: lease not ended, the next heartbeat ends it: {}", fence.turnId(), e.toString());
        }
    }

    /** Renews the leases of the turns running here and ends the leases left to end; returns how many it holds. */
    public int heartbeat() {
        for (TurnFence fence : List.copyOf(toClose)) {
            store.close(fence);
            toClose.remove(fence);
            held.remove(fence);
        }
        if (held.isEmpty()) return 0;
        List<TurnFence> renewing = List.copyOf(held);
        Set<TurnFence> still = store.renew(self, renewing, clock.instant().plus(lease));
        // a turn's answer ended its lease in the answer's transaction; a taken-over turn's lease is another's now
        for (TurnFence fence : renewing) {
            if (!still.contains(fence)) held.remove(fence);
        }
        return still.size();
    }

    /** How many leases this instance holds now. */
    public int held() {
        return held.size();
    }

    public InstanceIdentity self() {
        return self;
    }
}
