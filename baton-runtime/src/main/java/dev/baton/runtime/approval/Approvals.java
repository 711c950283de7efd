package dev.baton.runtime.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolError;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnResume;
import dev.baton.core.turn.TurnRunner;
import dev.baton.core.turn.TurnStateCodec;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.RateDecision;
import dev.baton.runtime.admission.TurnAdmission;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.turn.TurnDispatcher;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Human approval of tool calls (DESIGN §14), for every front door: deciding a held call, which goes on with its
 * paused turn on whichever instance receives the decision (through the same dispatch as a message: one turn per
 * session, the request deadline, cancel anywhere); the calls a session waits on; a new message denying them; expiry.
 *
 * <p>A paused turn goes on once every call it held is decided. The time it waited does not count against its request
 * deadline: it goes on with the time it had left when it paused, and never less than its agent's tool timeout, so an
 * approved call is not cut short by what happened before the pause. Its other limits (model calls, tool calls) carry
 * on from where it stopped. A decision takes nothing from the caller's rate limits (the message that paused did) but
 * reserves the turn's cost against their budgets like a message.
 */
public final class Approvals {
    private static final Logger log = LoggerFactory.getLogger(Approvals.class);
    /**
     * How much longer than the turn's time left a decision's claim holds: a turn is cut at its deadline, so an
     * instance still holding a claim this long after it is gone.
     */
    static final Duration CLAIM_MARGIN = Duration.ofSeconds(30);

    private final ApprovalStore store;
    private final Sessions sessions;
    private final ConversationStore conversations;
    private final AgentRegistry agents;
    private final TurnAdmission admission;
    private final TurnDispatcher dispatcher;
    private final TurnRunner runner;
    private final ToolExecutor executor;
    private final ToolCatalog tools;
    private final Clock clock;
    private final PausedTurnEnds ends;
    private final ExpiredTurns expired;
    private final SupersededTurns superseded;
    private final ApprovalSettings settings;
    private final boolean supersedesOnAppend;

    public Approvals(
            ApprovalStore store,
            ApprovalSettings settings,
            Sessions sessions,
            ConversationStore conversations,
            AgentRegistry agents,
            TurnAdmission admission,
            TurnDispatcher dispatcher,
            TurnRunner runner,
            ToolCatalog tools,
            Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.conversations = Objects.requireNonNull(conversations, "conversations");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.admission = Objects.requireNonNull(admission, "admission");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.executor = new ToolExecutor(Objects.requireNonNull(tools, "tools"), clock);
        this.tools = tools;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.supersedesOnAppend = store.pausedTurnsSeenBy(conversations);
        this.ends = new PausedTurnEnds(conversations, agents, runner);
        this.superseded = new SupersededTurns(store, ends, this.clock);
        this.expired = new ExpiredTurns(
                store,
                Objects.requireNonNull(settings, "settings"),
                ends,
                new AbandonedClaims(store, conversations, ends),
                this.clock);
    }

    /**
     * Why a call of {@code tool} by {@code agent} outside any turn (an MCP client's) needs the user's approval; empty
     * when it may run. The same rule as a turn's ({@link ApprovalSettings#reasonToHold}); such a call is not held here
     * (there is no turn to pause): its front door asks the user itself or refuses it.
     */
    public Optional<String> reasonToHold(AgentDefinition agent, ToolDefinition tool) {
        return settings.reasonToHold(agent, tool);
    }

    /**
     * Decides the caller's held call {@code callId} in their session. When it was the last call its turn waited on,
     * the turn goes on at once, on this thread, and {@code listener} hears it like a message's turn ({@code admitted},
     * then its events: {@code Started} with the paused turn's id, the decided calls, the rest of the loop).
     *
     * <p>A call decided before whose turn was claimed by an instance that died going on with it (its claim's lease
     * ran out) is not refused: the decision as recorded first takes the turn over here, and no approved call runs a
     * second time (see {@link TakeoverDecisions}).
     *
     * @throws RefusalException {@link Refusal.NotFound} (no such session or call of the caller's);
     *     {@link Refusal.ApprovalNotPending} (already decided, superseded, expired, or nothing waits);
     *     {@link Refusal.InvalidArguments} (edited arguments that do not match the tool's schema);
     *     {@link Refusal.InvalidInput}; {@link Refusal.SessionCompleted}; {@link Refusal.AgentUnavailable};
     *     {@link Refusal.BudgetExceeded}; {@link Refusal.SessionBusy} (the session's turn is running, e.g. another
     *     decision going on with it)
     */
    public ApprovalResult decide(
            Principal caller,
            String sessionId,
            String callId,
            ApprovalDecision decision,
            SendOptions options,
            TurnListener listener) {
        Sessions.require(caller, Sessions.WRITE);
        ApprovalDecisions.checkInput(decision);
        Session session = sessions.find(caller, sessionId).orElseThrow(() -> RefusalException.notFound("session"));
        ToolApproval call = store.find(caller.tenantId(), caller.userId(), session.id(), callId)
                .orElseThrow(() -> unknownCall(caller, session));
        Instant now = clock.instant();
        if (call.isPending() && !now.isBefore(call.expiresAt())) {
            expired.expire(call.turnId(), now);
            throw new RefusalException(ApprovalDecisions.notPending(ApprovalStatus.EXPIRED));
        }
        if (!call.isPending()) {
            // decided already: only a turn whose claim ran out (its instance died going on with it) goes on again
            PausedTurn abandoned = store.turn(caller.tenantId(), caller.userId(), call.turnId())
                    .filter(t -> t.abandonedAt(now))
                    .orElseThrow(() -> new RefusalException(ApprovalDecisions.notPending(call.status())));
            try (TurnAdmission.Admitted admitted = admission.admit(caller, session, RateDecision.UNLIMITED)) {
                return goOn(
                        caller,
                        session,
                        admitted,
                        abandoned,
                        options,
                        listener,
                        until -> store.reclaim(abandoned.turnId(), clock.instant(), until)
                                .orElseThrow(() ->
                                        new RefusalException(ApprovalDecisions.notPending(ApprovalStatus.APPROVED))));
            }
        }
        PausedTurn turn = store.pausedTurn(caller.tenantId(), caller.userId(), session.id())
                .filter(t -> t.turnId().equals(call.turnId()))
                .orElseThrow(() -> new RefusalException(ApprovalDecisions.notPending(ApprovalStatus.APPROVED)));
        JsonNode edited = decision.approve() ? decision.arguments() : null;
        // a decision takes nothing from the caller's rate limits: the message that paused the turn did
        try (TurnAdmission.Admitted admitted = admission.admit(caller, session, RateDecision.UNLIMITED, null, setup -> {
            if (edited != null) checkArguments(call, edited, caller, session, setup.agent());
        })) {
            ApprovalStore.Decision recorded = new ApprovalStore.Decision(
                    decision.approve() ? ApprovalStatus.APPROVED : ApprovalStatus.DENIED,
                    caller.userId(),
                    edited != null ? edited.toString() : null,
                    decision.comment());
            return goOn(caller, session, admitted, turn, options, listener, until -> switch (store.decide(
                    callId, recorded, clock.instant(), until)) {
                case ApprovalStore.NotPending np ->
                    throw new RefusalException(ApprovalDecisions.notPending(
                            np.current() == null
                                    ? ApprovalStatus.APPROVED
                                    : np.current().status()));
                case ApprovalStore.Waiting waiting -> throw new StillWaiting(waiting);
                case ApprovalStore.Resumable r -> r;
            });
        }
    }

    /**
     * Goes on with {@code turn} once {@code claim} took it (under the session's turn lock), on this thread, and
     * releases the claim at the turn's end. The claim holds for the turn's time left and {@link #CLAIM_MARGIN}: past
     * that, the instance holding it is taken for dead and a retried decision takes the turn over.
     */
    private ApprovalResult goOn(
            Principal caller,
            Session session,
            TurnAdmission.Admitted admitted,
            PausedTurn turn,
            SendOptions options,
            TurnListener listener,
            Function<Instant, ApprovalStore.Resumable> claim) {
        AgentDefinition agent = admitted.agent();
        Duration left = PausedTurnRequests.timeLeft(TurnStateCodec.decode(turn.state()), turn, agent);
        ApprovalStore.Resumable claimed = null;
        TurnOutcome outcome;
        try {
            try (TurnDispatcher.SessionLock lock = dispatcher.lock(session.id(), left)) {
                // a turn without a request timeout has no end to measure the claim by
                claimed = claim.apply(
                        clock.instant().plus(left == null ? ApprovalStore.DEFAULT_CLAIM : left.plus(CLAIM_MARGIN)));
                List<TurnResume.ToolDecision> decisions = decisions(claimed, turn);
                log.info(
                        "request {}: the calls turn {} held are decided; it goes on",
                        options.requestId(),
                        claimed.turn().turnId());
                listener.admitted(new AdmittedTurn(session, RateDecision.UNLIMITED, lock.cancellation()));
                TurnRequest request = PausedTurnRequests.resuming(
                        clock.instant(),
                        options.requestId(),
                        caller,
                        session,
                        agent,
                        admitted.setup().assignment(),
                        claimed,
                        decisions,
                        left,
                        lock.cancellation());
                outcome = dispatcher.run(lock, request, listener::onEvent);
            } finally {
                finish(claimed);
            }
        } catch (StillWaiting waiting) {
            return new ApprovalResult.Recorded(waiting.waiting.decided(), waiting.waiting.stillPending());
        }
        sessions.lifecycle().afterTurn(caller, session, admitted.setup());
        return new ApprovalResult.Resumed(new SendResult.Ran(session, outcome, RateDecision.UNLIMITED));
    }

    /** The decisions the turn goes on with; those of a turn taken over keep what its dead instance got to. */
    private List<TurnResume.ToolDecision> decisions(ApprovalStore.Resumable resumable, PausedTurn before) {
        if (before.status() == PausedTurn.Status.PAUSED) {
            return resumable.calls().stream().map(ApprovalDecisions::decision).toList();
        }
        log.warn(
                "paused turn {} was claimed by an instance that did not finish it by {}; this one takes it over",
                before.turnId(),
                before.claimedUntil());
        return TakeoverDecisions.of(resumable, conversations, clock.instant())
                // its end was stored before its instance could release the claim: nothing to go on with
                .orElseThrow(() -> new RefusalException(ApprovalDecisions.notPending(ApprovalStatus.APPROVED)));
    }

    private void finish(ApprovalStore.Resumable claimed) {
        if (claimed == null) return;
        try {
            store.finish(claimed.turn().turnId(), claimed.turn().claimId());
        } catch (RuntimeException e) {
            // the claim then runs out, and a retried decision finds the turn's end stored (or goes on without rerun)
            log.warn(
                    "could not release the claim of paused turn {}: {}",
                    claimed.turn().turnId(),
                    e.toString());
        }
    }

    /** The calls the caller's session waits on, in the order they were held (empty when nothing waits). */
    public List<ToolApproval> pending(Principal caller, String sessionId) {
        Sessions.require(caller, Sessions.READ);
        Session session = sessions.find(caller, sessionId).orElseThrow(() -> RefusalException.notFound("session"));
        return store.pending(caller.tenantId(), caller.userId(), session.id());
    }

    /**
     * Every held call of a session of {@code tenantId}, whoever's and whatever became of it, oldest first: who
     * decided, when, with which arguments. Kept after the session is deleted. For administrators: see
     * {@link dev.baton.runtime.audit.AuditTrails}, which checks the permission.
     */
    public List<ToolApproval> sessionAudit(String tenantId, String sessionId) {
        return store.sessionApprovals(tenantId, sessionId);
    }

    /**
     * A new message in the session denies the calls its paused turn waits on: the paused turn ends without the model
     * (its answer so far stored as cancelled, the calls as denied, status {@code superseded}). Called by the runtime
     * while it holds the session for the new message's turn.
     *
     * @return whether a paused turn was ended
     */
    public boolean supersede(Principal caller, Session session, AgentDefinition agent, String requestId) {
        return supersede(caller, session, agent, requestId, null);
    }

    /**
     * Whether a new message's turn can leave the lookup of a paused turn to its user message's append: the conversation
     * store refuses the append while the session has a paused turn ({@link
     * dev.baton.core.conversation.ConversationStore#appendUserMessageUnlessPaused}), and the turn then calls
     * {@link #supersede(Principal, Session, AgentDefinition, String)} and appends again. Otherwise the runtime calls it
     * before every new message's turn.
     */
    public boolean supersedesOnAppend() {
        return supersedesOnAppend;
    }

    /**
     * As {@link #supersede(Principal, Session, AgentDefinition, String)}; with a {@code reply}, the message answered
     * the confirmation question with neither yes nor no ({@link ConfirmationReply#OTHER}): the calls are recorded as
     * denied by the caller with {@code reply} as the comment, like {@code deny} on the v1 route, and the message's
     * own turn then sees the denial.
     */
    public boolean supersede(Principal caller, Session session, AgentDefinition agent, String requestId, String reply) {
        return superseded.supersede(caller, session, agent, requestId, reply);
    }

    /**
     * The held call of the caller's {@code session} that expired with nothing said since: the newest held call of
     * the session is expired and no user message came after it was held. A yes or no then answers a question
     * that can no longer be granted.
     */
    Optional<ToolApproval> expiredUnanswered(Principal caller, Session session) {
        List<ToolApproval> held = store.sessionApprovals(caller.tenantId(), session.id());
        if (held.isEmpty()) return Optional.empty();
        ToolApproval newest = held.getLast();
        if (newest.status() != ApprovalStatus.EXPIRED || !newest.userId().equals(caller.userId()))
            return Optional.empty();
        boolean spokenSince = conversations.recentMessages(caller.userId(), session.id(), 20).stream()
                .anyMatch(m -> m.role() == MessageRole.USER && m.createdAt().isAfter(newest.createdAt()));
        return spokenSince ? Optional.empty() : Optional.of(newest);
    }

    /** The calls the caller's session waits on, without the read permission check (for a decision by message). */
    List<ToolApproval> waitingIn(Principal caller, Session session) {
        return store.pending(caller.tenantId(), caller.userId(), session.id());
    }

    /** Words the question that asks the user to confirm held calls. */
    ConfirmationQuestions questions() {
        return new ConfirmationQuestions(tools, agents, clock);
    }

    Clock clock() {
        return clock;
    }

    /**
     * Ends the paused turns whose held calls expired: the calls become {@code expired} (denied), the turn's answer
     * so far is stored as cancelled; and the turns claimed by an instance that died which nobody took over by then
     * ({@link AbandonedClaims}). The background job runs it every {@code lifecycle.sweepInterval}.
     *
     * @return how many paused turns it ended
     */
    public int expire() {
        return expired.endAll();
    }

    private void checkArguments(
            ToolApproval call, JsonNode arguments, Principal caller, Session session, AgentDefinition agent) {
        ToolCallScope scope =
                new ToolCallScope(agent, caller, session.id(), agent.limits().toolTimeout(), new Cancellation());
        Optional<ToolError> refused =
                executor.refusal(new ToolCallRequest(call.toolCallId(), call.toolName(), arguments.toString()), scope);
        if (refused.isPresent())
            throw new RefusalException(
                    new Refusal.InvalidArguments(refused.get().message()));
    }

    private RefusalException unknownCall(Principal caller, Session session) {
        if (store.pending(caller.tenantId(), caller.userId(), session.id()).isEmpty())
            return new RefusalException(new Refusal.ApprovalNotPending(
                    "no_pending_approval", "nothing in this session is waiting for approval"));
        return RefusalException.notFound("tool call");
    }

    /** Unwinds the dispatch when a decision leaves other calls of the turn pending: nothing goes on yet. */
    private static final class StillWaiting extends RuntimeException {
        final transient ApprovalStore.Waiting waiting;

        StillWaiting(ApprovalStore.Waiting waiting) {
            super("other calls still wait", null, false, false);
            this.waiting = waiting;
        }
    }
}
