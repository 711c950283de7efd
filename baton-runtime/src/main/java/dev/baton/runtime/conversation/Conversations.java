package dev.baton.runtime.conversation;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.BudgetReservation;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.admission.IdempotencyKeys;
import dev.baton.runtime.admission.RateDecision;
import dev.baton.runtime.admission.TurnAdmission;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.durable.DurableTurns;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.turn.TurnDispatcher;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sending a user message and running its turn: the one sequence every front door calls (DESIGN §4, §11). In order:
 * the input rules, the caller's session, the idempotency key, the rate limits, the session's state and limits, the
 * budget reservation, then the turn itself (one per session on any instance, bounded by the agent's request
 * timeout), and after it the session's message limit. Refusals are thrown as {@link RefusalException} before the
 * turn is admitted; once {@link TurnListener#admitted} was called, every outcome is a {@link SendResult}.
 *
 * <p>A message sent while the session's turn waits for the user's approval of tool calls denies those calls: the
 * paused turn ends without the model (see {@link Approvals#supersede}) before the new message is stored — up front,
 * or when the store refuses the message's append because of it ({@link Approvals#supersedesOnAppend}).
 */
public final class Conversations {
    private static final Logger log = LoggerFactory.getLogger(Conversations.class);
    /** How often a key that could not be released (the database was away) is tried again. */
    private static final Duration RELEASE_RETRY = Duration.ofSeconds(1);

    private final Sessions sessions;
    private final AgentRegistry agents;
    private final TurnAdmission admission;
    private final TurnDispatcher dispatcher;
    /** Null when no idempotency store is configured: then a request with a key is refused. */
    private final IdempotencyKeys idempotency;
    /** Null when tool calls never wait for approval. */
    private final Approvals approvals;
    /** Null unless turns are durable: see {@link DurableTurns}. */
    private final DurableTurns durable;

    public Conversations(
            Sessions sessions,
            AgentRegistry agents,
            TurnAdmission admission,
            TurnDispatcher dispatcher,
            IdempotencyKeys idempotency) {
        this(sessions, agents, admission, dispatcher, idempotency, null);
    }

    /** @param approvals ends a paused turn when a new message arrives; null when calls never wait for approval */
    public Conversations(
            Sessions sessions,
            AgentRegistry agents,
            TurnAdmission admission,
            TurnDispatcher dispatcher,
            IdempotencyKeys idempotency,
            Approvals approvals) {
        this(sessions, agents, admission, dispatcher, idempotency, approvals, null);
    }

    /**
     * @param durable with durable turns: an orphaned turn of the session goes on before a new message's, and a retry
     *     whose request's instance died waits for the turn taken over and replays its answer; null for none
     */
    public Conversations(
            Sessions sessions,
            AgentRegistry agents,
            TurnAdmission admission,
            TurnDispatcher dispatcher,
            IdempotencyKeys idempotency,
            Approvals approvals,
            DurableTurns durable) {
        this.durable = durable;
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.admission = Objects.requireNonNull(admission, "admission");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.idempotency = idempotency;
        this.approvals = approvals;
    }

    /**
     * Sends {@code content} to the caller's session and runs the turn.
     *
     * @param listener hears the turn being admitted and its events as they happen
     * @throws RefusalException when the message is refused before its turn runs: {@link Refusal.InvalidInput},
     *     {@link Refusal.NotFound}, {@link Refusal.IdempotencyKeyReused}, {@link Refusal.IdempotencyKeyInUse},
     *     {@link Refusal.RateLimited}, {@link Refusal.SessionCompleted}, {@link Refusal.AgentUnavailable},
     *     {@link Refusal.BudgetExceeded}, {@link Refusal.SessionBusy}
     */
    public SendResult send(
            Principal caller, String sessionId, String content, SendOptions options, TurnListener listener) {
        Sessions.require(caller, Sessions.WRITE);
        String message = MessageContent.normalize(content);
        Session session = sessions.find(caller, sessionId).orElseThrow(() -> RefusalException.notFound("session"));
        return once(caller, "session:" + session.id(), options, () -> {
            RateDecision rate = admission.acquireRate(caller);
            return run(caller, session, message, options, listener, rate, null);
        });
    }

    /**
     * What a one-shot chat continues: an existing conversation, or a new one with an agent (null: the caller's
     * default agent).
     */
    public record ChatTarget(String conversationId, String agentId) {}

    /**
     * Sends {@code content} as a one-shot chat: to the caller's conversation {@code target.conversationId()}, or to a
     * new session with {@code target.agentId()} (or the caller's default agent), started only once the message is
     * admitted, so a refused message leaves no empty conversation behind.
     *
     * @throws RefusalException as {@link #send}, and {@link Refusal.Forbidden} for an agent the caller may not use
     */
    public SendResult chat(
            Principal caller, ChatTarget target, String content, SendOptions options, TurnListener listener) {
        Sessions.require(caller, Sessions.WRITE);
        String message = MessageContent.normalize(content);
        String where = target.conversationId() != null ? "chat:" + target.conversationId() : "chat";
        return once(caller, where, options, () -> {
            RateDecision rate = admission.acquireRate(caller);
            if (target.conversationId() != null) {
                Session session = sessions.find(caller, target.conversationId())
                        .orElseThrow(() -> RefusalException.notFound("conversation"));
                return run(caller, session, message, options, listener, rate, null);
            }
            String agentId = target.agentId() != null
                    ? target.agentId()
                    : agents.defaultFor(caller).id();
            // reserved before the session is created, so a refused message leaves no empty conversation behind
            try (BudgetReservation budget =
                    admission.reserveBudget(caller, agents.find(agentId).orElse(null))) {
                Session session = sessions.start(caller, agentId, null);
                return run(caller, session, message, options, listener, rate, budget);
            }
        });
    }

    /** Runs {@code send} at most once per idempotency key; releases the key when nothing worth replaying came of it. */
    private SendResult once(Principal caller, String target, SendOptions options, Send send) {
        if (options.idempotencyKey() == null) return send.run();
        if (idempotency == null)
            throw RefusalException.invalidInput("idempotency keys are not supported by this deployment");
        IdempotencyKeys.Claim claim = claim(caller, options.idempotencyKey(), target);
        if (claim instanceof IdempotencyKeys.Replay replay) return new SendResult.Replayed(replay.outcome());
        IdempotencyKeys.Claimed claimed = (IdempotencyKeys.Claimed) claim;
        SendResult result;
        if (durable != null) durable.running(options.requestId(), claimed);
        try {
            result = send.run();
        } catch (RuntimeException | Error e) {
            try {
                idempotency.release(claimed);
            } catch (StoreUnavailableException unavailable) {
                // the client retries once the database is back: free the key for it then
                idempotency.releaseWhenPossible(claimed, RELEASE_RETRY);
            }
            if (durable != null) durable.settled();
            throw e;
        } finally {
            if (durable != null) durable.ended(options.requestId());
        }
        // a turn paused for approval replays as paused: a retry must not deny its own pending calls
        boolean replayable = result instanceof SendResult.Ran ran
                && (ran.outcome().succeeded()
                        || ran.outcome().awaitingApproval().isPresent());
        try {
            if (replayable) {
                idempotency.complete(claimed, ((SendResult.Ran) result).outcome());
            } else {
                idempotency.release(claimed);
            }
        } catch (StoreUnavailableException e) {
            // the turn's own result stands; a failed turn's key is freed once the database is back (a completed
            // one's claim expires with its lease: its answer was sent, and a retry after the lease runs it again)
            if (!replayable) idempotency.releaseWhenPossible(claimed, RELEASE_RETRY);
            log.warn(
                    "idempotency key {} could not be settled, its claim expires by itself: {}",
                    claimed.key(),
                    e.getMessage());
        }
        if (durable != null) durable.settled();
        return result;
    }

    /**
     * Claims the key; with durable turns, a key in use by a leased turn (running on a live instance, or taken over
     * from a dead one) is claimed once that turn settled it: a replay of its answer.
     */
    private IdempotencyKeys.Claim claim(Principal caller, IdempotencyKey key, String target) {
        try {
            return idempotency.claim(caller, key, target);
        } catch (RefusalException e) {
            if (durable == null || !(e.refusal() instanceof Refusal.IdempotencyKeyInUse)) throw e;
            return durable.awaitTurn(caller, key, target).orElseThrow(() -> e);
        }
    }

    @FunctionalInterface
    private interface Send {
        SendResult run();
    }

    /** @param reserved the turn's budget reservation when already made (closed by the caller); null to reserve here */
    private SendResult run(
            Principal caller,
            Session session,
            String message,
            SendOptions options,
            TurnListener listener,
            RateDecision rate,
            BudgetReservation reserved) {
        try (TurnAdmission.Admitted admitted = admission.admit(caller, session, rate, reserved, setup -> {})) {
            AgentDefinition agent = admitted.agent();
            TurnOutcome outcome;
            try (TurnDispatcher.SessionLock lock =
                    dispatcher.lock(session.id(), agent.limits().requestTimeout())) {
                // a turn of the session whose instance died answers its message before this one is taken
                if (durable != null) durable.beforeTurn(lock, session.id());
                // a paused turn of the session is superseded under the session's lock: a decision cannot go on with
                // it meanwhile. Where the store can, the user message's append refuses while one waits and the turn
                // supersedes it then, so the lookup is not a statement of every turn for a row almost never there; a
                // message that answers the held calls decides them up front, before its turn.
                boolean onAppend =
                        approvals != null && approvals.supersedesOnAppend() && options.answersHeldCalls() == null;
                Session current = approvals != null
                                && !onAppend
                                && approvals.supersede(
                                        caller, session, agent, options.requestId(), options.answersHeldCalls())
                        ? sessions.find(caller, session.id()).orElse(session)
                        : session;
                listener.admitted(new AdmittedTurn(current, rate, lock.cancellation()));
                TurnRequest request = new TurnRequest(
                        options.requestId(),
                        caller,
                        current,
                        agent,
                        message,
                        lock.cancellation(),
                        admitted.setup().assignment());
                if (onAppend)
                    request = request.supersedingWith(
                            () -> approvals.supersede(caller, session, agent, options.requestId()));
                outcome = dispatcher.run(lock, request, listener::onEvent);
            }
            // before the answer reaches the client, so a client that sends again at once sees the session completed
            try {
                sessions.lifecycle().afterTurn(caller, session, admitted.setup());
            } catch (StoreUnavailableException e) {
                // the turn's own outcome (saved, or failed as database_unavailable) is what the client must see
                log.warn("session {}: message limit not checked after the turn: {}", session.id(), e.getMessage());
            }
            return new SendResult.Ran(session, outcome, rate);
        }
    }
}
