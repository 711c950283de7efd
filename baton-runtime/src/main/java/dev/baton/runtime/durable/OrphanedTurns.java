package dev.baton.runtime.durable;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.turn.ToolApprovals;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnRunner;
import dev.baton.core.turn.TurnState;
import dev.baton.core.turn.TurnStateCodec;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.RateDecision;
import dev.baton.runtime.admission.TurnAdmission;
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
 *
 * <p>A turn taken over passes the same admission as any turn going on ({@link TurnAdmission#admit}, like a decision
 * on a paused turn: nothing taken from the rate limits, the message did that): its session must still take a turn and
 * its cost ceiling is reserved against its user's budgets until it ends. A turn refused there does not go on: its
 * answer so far is stored (incomplete) under its lease, which that ends, and its followers read the refusal as its
 * end ({@code budget_exceeded}, as a message refused then would get).
 */
public final class OrphanedTurns {
    private static final Logger log = LoggerFactory.getLogger(OrphanedTurns.class);

    private final TurnLeaseStore store;
    private final LeasedTurnJournal journal;
    private final DurableTurnSettings settings;
    private final Sessions sessions;
    private final AgentRegistry agents;
    private final TurnDispatcher dispatcher;
    private final TurnAdmission admission;
    private final TurnRunner runner;
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
            TurnAdmission admission,
            TurnRunner runner,
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
        this.admission = admission;
        this.runner = runner;
        this.events = events;
        this.retries = retries;
        this.inFlight = new InFlightCalls(tools, approvals, settings.unknownOutcome());
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

    /** A turn taken over by this instance ({@code leased}: its new lease), ready to go on under its session's lock. */
    private record Taken(
            LeasedTurn leased, TurnState stored, Principal principal, Session session, AgentDefinition agent) {}

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
     * Takes {@code orphan} over under {@code lock} (a compare-and-set on its epoch); empty when another instance was
     * first, or the turn cannot go on (it is then dropped).
     */
    private Optional<Taken> claim(LeasedTurn orphan, TurnDispatcher.SessionLock lock) {
        Principal principal;
        try {
            principal = PrincipalJson.decode(orphan.principal());
            TurnStateCodec.decode(orphan.state()); // one that cannot be read is dropped, not taken over
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
        // the state as of the takeover, not as read before it: a stalled owner may have written a step in between
        // (legitimately: its epoch still held), and going on from the older state would run that step's calls again
        TurnState current;
        try {
            current = TurnStateCodec.decode(taken.get().state());
        } catch (RuntimeException e) {
            journal.close(fence);
            log.error("taken-over turn {} cannot be read; it is dropped", orphan.turnId(), e);
            return Optional.empty();
        }
        journal.adopt(fence);
        log.warn(
                "turn {} of request {} was orphaned by instance {}; taken over at epoch {}",
                orphan.turnId(),
                orphan.requestId(),
                orphan.owner().instanceId(),
                fence.epoch());
        return Optional.of(new Taken(taken.get(), current, principal, session.get(), agent.get()));
    }

    private void goOn(TurnDispatcher.SessionLock lock, Taken taken) {
        String turnId = taken.stored().turnId();
        TurnEventRecorder recorder = new TurnEventRecorder(events, taken.principal());
        try {
            TurnAdmission.Admitted admitted;
            try {
                // the same limits as every turn: a decision's admission (no rate taken, the message took it)
                admitted = admission.admit(taken.principal(), taken.session(), RateDecision.UNLIMITED);
            } catch (RefusalException refused) {
                settle(taken, refuse(taken, refused.refusal(), recorder));
                return;
            }
            TurnOutcome outcome;
            try (admitted) {
                TurnRequest request = TakeoverRequests.resuming(
                        clock.instant(),
                        taken.leased(),
                        taken.stored(),
                        taken.principal(),
                        taken.session(),
                        admitted.agent(),
                        admitted.setup().assignment(),
                        lock.cancellation(),
                        inFlight);
                outcome = dispatcher.run(lock, request, recorder::record);
                afterTurn(taken, admitted);
            }
            settle(taken, outcome);
            log.info(
                    "taken-over turn {} of request {} ended: {}",
                    turnId,
                    taken.leased().requestId(),
                    outcome.succeeded() ? "answered" : outcome.terminal());
        } catch (RuntimeException e) {
            log.error("taken-over turn {} failed", turnId, e);
        }
    }

    /**
     * Ends a taken-over turn its admission refused, without the model: its answer so far is stored as incomplete under
     * its lease (which that ends), and its followers read the refusal as its end.
     */
    private TurnOutcome refuse(Taken taken, Refusal refusal, TurnEventRecorder recorder) {
        TurnEvent.Failed failed = new TurnEvent.Failed(refusal.code(), refusal.message(), false);
        log.warn(
                "taken-over turn {} of request {} does not go on: {}",
                taken.stored().turnId(),
                taken.leased().requestId(),
                refusal.code());
        TurnRequest request = TakeoverRequests.closing(
                clock.instant(), taken.leased(), taken.stored(), taken.principal(), taken.session(), taken.agent());
        TurnOutcome outcome;
        try {
            outcome = runner.closePaused(request, MessageStatus.INCOMPLETE, failed);
        } finally {
            // whatever was stored, the turn's stream ends with the refusal; its lease, if not ended, is closed
            recorder.record(new TurnEvent.Started(
                    taken.stored().turnId(),
                    taken.session().id(),
                    taken.leased().requestId()));
            recorder.record(failed);
            journal.close(taken.leased().fence());
        }
        return outcome;
    }

    /** The session's end of turn (its message limit), as after any turn; a failure leaves the answer as stored. */
    private void afterTurn(Taken taken, TurnAdmission.Admitted admitted) {
        try {
            sessions.lifecycle().afterTurn(taken.principal(), taken.session(), admitted.setup());
        } catch (RuntimeException e) {
            log.warn(
                    "session {}: message limit not checked after the turn taken over: {}",
                    taken.session().id(),
                    e.toString());
        }
    }

    /** A retry of the request that started the turn waits for this, and replays it. */
    private void settle(Taken taken, TurnOutcome outcome) {
        if (retries != null) retries.settle(taken.leased(), outcome);
    }
}
