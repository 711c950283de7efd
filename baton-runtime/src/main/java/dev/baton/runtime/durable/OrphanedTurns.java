package dev.baton.runtime.durable;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.turn.ToolApprovals;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnState;
import dev.baton.core.turn.TurnStateCodec;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventRecorder;
import dev.baton.runtime.turn.TurnDispatcher;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds running turns whose instance died (their lease ran out, or their instance restarted) and goes on with each on
 * this instance: under the session's turn lock, the turn is taken over by a compare-and-set on its lease's epoch (one
 * instance wins), then it goes on from its last checkpoint as the user it runs for, on a thread of its own (the tool
 * calls that were running when the instance died are decided by {@link InFlightCalls}). Its events
 * go to the turn's event log, numbered after those kept of the dead instance's run.
 */
public final class OrphanedTurns {
    private static final Logger log = LoggerFactory.getLogger(OrphanedTurns.class);

    private final TurnLeaseStore store;
    private final LeasedTurnJournal journal;
    private final DurableTurnSettings settings;
    private final Sessions sessions;
    private final AgentRegistry agents;
    private final TurnDispatcher dispatcher;
    private final TurnEventLog events;
    private final Clock clock;
    /** Null when no idempotency keys are kept. */
    private final DurableRetries retries;

    private final InFlightCalls inFlight;

    public OrphanedTurns(
            TurnLeaseStore store,
            LeasedTurnJournal journal,
            DurableTurnSettings settings,
            Sessions sessions,
            AgentRegistry agents,
            TurnDispatcher dispatcher,
            TurnEventLog events,
            DurableRetries retries,
            ToolCatalog tools,
            ToolApprovals approvals,
            Clock clock) {
        this.store = store;
        this.journal = journal;
        this.settings = settings;
        this.sessions = sessions;
        this.agents = agents;
        this.dispatcher = dispatcher;
        this.events = events;
        this.retries = retries;
        this.inFlight = new InFlightCalls(tools, approvals);
        this.clock = clock;
    }

    /** At boot: the turns this instance's earlier boots ran are orphaned now, not when their leases run out. */
    public int afterRestart() {
        int n = store.expireEarlierBoots(journal.self(), clock.instant());
        if (n > 0) log.info("{} turns of this instance's previous boot are taken over", n);
        return n;
    }

    /**
     * Renews this instance's leases, then takes over the orphaned turns it finds (each goes on on a virtual thread).
     *
     * @return how many turns it took over
     */
    public int heartbeat() {
        journal.heartbeat();
        int taken = 0;
        for (LeasedTurn orphan : store.orphaned(clock.instant(), settings.sweepBatch())) {
            if (takeOver(orphan)) taken++;
        }
        return taken;
    }

    /**
     * Before a new turn in the session, under the session's lock: a turn of the session whose instance died goes on
     * first, on this thread, so its answer comes before the new message's; a turn still leased by a live instance makes
     * the session busy (one turn per session on any instance, with or without Redis).
     *
     * @throws RefusalException {@link Refusal.SessionBusy} when another instance runs the session's turn
     */
    public void beforeTurn(TurnDispatcher.SessionLock lock, String sessionId) {
        Optional<LeasedTurn> leased = store.inSession(sessionId);
        if (leased.isEmpty()) return;
        if (leased.get().leasedUntil().isAfter(clock.instant())) throw new RefusalException(new Refusal.SessionBusy());
        claim(leased.get(), lock).ifPresent(taken -> goOn(lock, taken));
    }

    /** A turn taken over by this instance, ready to go on under its session's lock. */
    private record Taken(TurnRequest request, LeasedTurn leased) {}

    /** Takes {@code orphan} over and starts it going on; false when it is not this instance's to take now. */
    private boolean takeOver(LeasedTurn orphan) {
        TurnDispatcher.SessionLock lock;
        try {
            lock = lockSession(orphan);
        } catch (RefusalException busy) {
            return false; // a turn runs in the session
        }
        Optional<Taken> taken;
        try {
            taken = claim(orphan, lock);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
        if (taken.isEmpty()) {
            lock.close();
            return false;
        }
        Thread.ofVirtual().name("turn-takeover-" + orphan.turnId()).start(() -> {
            try (lock) {
                goOn(lock, taken.get());
            }
        });
        return true;
    }

    /**
     * Locks the orphan's session. When its dead instance's shared lock still holds the session (it expires only a
     * request timeout later), that lock is broken: the lease that ran out says its holder is dead (a holder only
     * paused cannot write again: its fence no longer holds). A lock any other instance holds is never broken.
     */
    private TurnDispatcher.SessionLock lockSession(LeasedTurn orphan) {
        try {
            return dispatcher.lock(orphan.sessionId(), lockTime(orphan));
        } catch (RefusalException busy) {
            if (!dispatcher.breakLockHeldBy(orphan.sessionId(), orphan.owner().lockHolder())) throw busy;
            log.info(
                    "the session lock of turn {} held by dead instance {} was broken",
                    orphan.turnId(),
                    orphan.owner().instanceId());
            return dispatcher.lock(orphan.sessionId(), lockTime(orphan));
        }
    }

    /** How long the session is held for a turn taken over: its agent's request timeout (its deadline is its own). */
    private Duration lockTime(LeasedTurn orphan) {
        return agents.find(orphan.agentId())
                .map(a -> a.limits().requestTimeout())
                .orElse(Duration.ofMinutes(10));
    }

    /**
     * Takes {@code orphan} over under {@code lock} (a compare-and-set on its epoch) and builds the request that goes
     * on with it; empty when another instance was first, or the turn cannot go on (it is then dropped).
     */
    private Optional<Taken> claim(LeasedTurn orphan, TurnDispatcher.SessionLock lock) {
        Principal principal;
        TurnState stored;
        try {
            principal = PrincipalJson.decode(orphan.principal());
            stored = TurnStateCodec.decode(orphan.state());
        } catch (RuntimeException e) {
            log.error("orphaned turn {} cannot be read; it is dropped", orphan.turnId(), e);
            store.takeOver(orphan, journal.self(), clock.instant(), clock.instant())
                    .ifPresent(t -> store.close(t.fence()));
            return Optional.empty();
        }
        Optional<AgentDefinition> agent = agents.find(orphan.agentId());
        Optional<Session> session = sessions.find(principal, orphan.sessionId());
        Instant now = clock.instant();
        Optional<LeasedTurn> taken = store.takeOver(orphan, journal.self(), now, now.plus(settings.lease()));
        if (taken.isEmpty()) return Optional.empty(); // another instance was first
        TurnFence fence = taken.get().fence();
        if (agent.isEmpty() || session.isEmpty()) {
            journal.close(fence);
            log.warn(
                    "orphaned turn {} dropped: its {} is gone",
                    orphan.turnId(),
                    agent.isEmpty() ? "agent " + orphan.agentId() : "session " + orphan.sessionId());
            return Optional.empty();
        }
        journal.adopt(fence);
        log.warn(
                "turn {} of request {} was orphaned by instance {}; taken over at epoch {}",
                orphan.turnId(),
                orphan.requestId(),
                orphan.owner().instanceId(),
                fence.epoch());
        TurnRequest request = TakeoverRequests.resuming(
                clock.instant(),
                taken.get(),
                stored,
                principal,
                session.get(),
                agent.get(),
                lock.cancellation(),
                inFlight);
        return Optional.of(new Taken(request, taken.get()));
    }

    private void goOn(TurnDispatcher.SessionLock lock, Taken taken) {
        TurnRequest request = taken.request();
        try {
            TurnEventRecorder recorder = new TurnEventRecorder(events, request.principal());
            TurnOutcome outcome = dispatcher.run(lock, request, recorder::record);
            // a retry of the request that started the turn waits for this, and replays it
            if (retries != null) retries.settle(taken.leased(), outcome);
            log.info(
                    "taken-over turn {} of request {} ended: {}",
                    request.resume().state().turnId(),
                    request.requestId(),
                    outcome.succeeded() ? "answered" : outcome.terminal());
        } catch (RuntimeException e) {
            log.error("taken-over turn {} failed", request.resume().state().turnId(), e);
        }
    }
}
