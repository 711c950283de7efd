package dev.baton.runtime.approval;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.RateDecision;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.MessageContent;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Approval in words, for front doors without an approval UI (the designs' own APIs): a turn that pauses on calls
 * needing the user's approval ends with a question that says what would happen ("Delete the task 'buy wax'? Reply
 * yes or no."), and the user's next message in that conversation decides it by {@link ConfirmationReply}'s fixed
 * rules, never by a model:
 *
 * <ul>
 *   <li>a clear yes approves every waiting call and the paused turn goes on to its answer;
 *   <li>a clear no denies them and the paused turn goes on, the model told;
 *   <li>anything else denies them with the message as the comment, ends the paused turn without the model, and is
 *       answered as a new turn;
 *   <li>a yes or no to calls that expired decides nothing and is told so ({@link ConfirmedTurn.TooLate}).
 * </ul>
 *
 * Decisions go through {@link Approvals#decide} as the signed-in user (the same records, so the same audit trail,
 * as the v1 approval route; the user's words are the decision's comment) and keep its rules: expiry, budgets, one
 * turn per session. A model's output can never decide: only the text the user sent to the door is read.
 */
public final class ConversationalConfirmation {
    private static final Logger log = LoggerFactory.getLogger(ConversationalConfirmation.class);

    /** What a late yes or no is told. */
    static final String TOO_LATE =
            "That request expired before you answered, so I did not do it. Ask me again if you" + " still want it.";

    /** {@code Done}'s stop reason when a late reply was answered without a turn. */
    public static final String STOP_TOO_LATE = "approval_expired";

    private final Conversations conversations;
    private final Approvals approvals;
    private final Sessions sessions;
    private final ConfirmationQuestions questions;

    public ConversationalConfirmation(Conversations conversations, Approvals approvals, Sessions sessions) {
        this.conversations = Objects.requireNonNull(conversations, "conversations");
        this.approvals = Objects.requireNonNull(approvals, "approvals");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.questions = approvals.questions();
    }

    /**
     * Sends {@code content} as {@link Conversations#chat} does, with approvals asked and answered in words.
     * {@code listener} hears the turn that runs (the message's own, or the paused one going on); a pause is heard
     * as a {@code Chunk} with the question just before {@code AwaitingApproval}, and a late reply as a turn of its own
     * ({@code Started}, a {@code Chunk} with the notice, {@code Done} with stop reason {@value #STOP_TOO_LATE}).
     *
     * @throws RefusalException as {@link Conversations#chat} and {@link Approvals#decide}
     */
    public ConfirmedTurn chat(
            Principal caller,
            Conversations.ChatTarget target,
            String content,
            SendOptions options,
            TurnListener listener) {
        Sessions.require(caller, Sessions.WRITE);
        String message = MessageContent.normalize(content);
        Asking asking = new Asking(caller, listener);
        if (target.conversationId() != null) {
            Optional<Session> session = sessions.find(caller, target.conversationId());
            if (session.isPresent()) {
                Optional<ConfirmedTurn> decided = decide(caller, session.get(), message, options, asking);
                if (decided.isPresent()) return decided.get();
            }
            // an unknown conversation is refused by chat below, exactly as without confirmation
        }
        return ran(conversations.chat(caller, target, message, options, asking), asking);
    }

    /** The message as a decision on what the session waits on; empty when it is just a message. */
    private Optional<ConfirmedTurn> decide(
            Principal caller, Session session, String message, SendOptions options, Asking asking) {
        ConfirmationReply reply = ConfirmationReply.of(message);
        List<ToolApproval> waiting = approvals.waitingIn(caller, session);
        if (waiting.isEmpty()) {
            if (reply == ConfirmationReply.OTHER
                    || approvals.expiredUnanswered(caller, session).isEmpty()) return Optional.empty();
            return Optional.of(tooLate(session, options, asking));
        }
        String comment = comment(message);
        log.info(
                "request {}: the user's message answers {} held call(s) in session {}: {}",
                options.requestId(),
                waiting.size(),
                session.id(),
                reply);
        if (reply == ConfirmationReply.OTHER) {
            // denied under the session's lock once the message is admitted (a refused message denies nothing);
            // calls already past their expiry are not the user's to deny: the message supersedes them as usual
            boolean expired =
                    waiting.stream().anyMatch(c -> !approvals.clock().instant().isBefore(c.expiresAt()));
            return Optional.of(ran(
                    conversations.chat(
                            caller,
                            new Conversations.ChatTarget(session.id(), null),
                            message,
                            expired ? options : options.answeringHeldCalls(comment),
                            asking),
                    asking));
        }
        ApprovalDecision decision = new ApprovalDecision(reply == ConfirmationReply.YES, null, comment);
        ApprovalResult result = null;
        try {
            for (ToolApproval call : waiting) {
                result = approvals.decide(caller, session.id(), call.callId(), decision, options, asking);
            }
        } catch (RefusalException e) {
            if (e.refusal() instanceof Refusal.ApprovalNotPending np && "approval_expired".equals(np.code()))
                return Optional.of(tooLate(session, options, asking));
            throw e;
        }
        return Optional.of(
                switch (result) {
                    case ApprovalResult.Resumed resumed -> ran(resumed.ran(), asking);
                    // decided meanwhile elsewhere in part: ask again about what still waits
                    case ApprovalResult.Recorded recorded ->
                        new ConfirmedTurn.Asked(
                                session.id(),
                                recorded.decided().turnId(),
                                questions.ask(
                                        caller,
                                        session,
                                        recorded.stillPending().stream()
                                                .map(ConversationalConfirmation::call)
                                                .toList()),
                                List.of(),
                                approvals.clock().instant());
                    case null -> throw new IllegalStateException("nothing was decided");
                });
    }

    private ConfirmedTurn ran(SendResult result, Asking asking) {
        TurnOutcome outcome = switch (result) {
            case SendResult.Ran ran -> ran.outcome();
            case SendResult.Replayed replayed -> replayed.outcome();
        };
        String conversationId = result instanceof SendResult.Ran ran
                ? ran.session().id()
                : outcome.userMessage().sessionId();
        if (outcome.terminal() instanceof TurnEvent.AwaitingApproval paused) {
            String question = asking.question != null ? asking.question : asking.ask(paused, conversationId);
            return new ConfirmedTurn.Asked(
                    conversationId,
                    paused.turnId(),
                    question,
                    outcome.toolCalls(),
                    approvals.clock().instant());
        }
        return new ConfirmedTurn.Answered(conversationId, outcome);
    }

    /** Tells the listener, as a turn that stores nothing, that the reply came too late. */
    private ConfirmedTurn tooLate(Session session, SendOptions options, Asking asking) {
        log.info(
                "request {}: a reply in session {} came after its held calls expired",
                options.requestId(),
                session.id());
        asking.admitted(new AdmittedTurn(session, RateDecision.UNLIMITED, new Cancellation()));
        asking.onEvent(new TurnEvent.Started(Ids.newId(), session.id(), options.requestId()));
        asking.onEvent(new TurnEvent.Chunk(TOO_LATE));
        asking.onEvent(new TurnEvent.Done(
                null, null, new TurnEvent.Usage(0, 0, 0, BigDecimal.ZERO), 0, List.of(), STOP_TOO_LATE));
        return new ConfirmedTurn.TooLate(
                session.id(), TOO_LATE, approvals.clock().instant());
    }

    /** The user's words as a decision's comment (cut to what a comment keeps). */
    private static String comment(String message) {
        return message.length() <= ApprovalDecision.MAX_COMMENT
                ? message
                : message.substring(0, ApprovalDecision.MAX_COMMENT);
    }

    private static ConfirmationQuestions.Call call(ToolApproval a) {
        return new ConfirmationQuestions.Call(
                a.toolName(), ConfirmationQuestions.parse(a.effectiveArguments()), a.summary());
    }

    /**
     * Passes the turn's events on, and words the question when the turn pauses: a {@code Chunk} with it (after a
     * blank line when the model said something first) just before {@code AwaitingApproval}.
     */
    private final class Asking implements TurnListener {
        private final Principal caller;
        private final TurnListener listener;
        private Session session;
        private boolean spoke;
        String question;

        Asking(Principal caller, TurnListener listener) {
            this.caller = caller;
            this.listener = listener;
        }

        @Override
        public void admitted(AdmittedTurn turn) {
            session = turn.session();
            listener.admitted(turn);
        }

        @Override
        public void onEvent(TurnEvent event) {
            if (event instanceof TurnEvent.Chunk || event instanceof TurnEvent.Blocked) spoke = true;
            if (event instanceof TurnEvent.AwaitingApproval paused && session != null) {
                question = ask(paused, session.id());
                listener.onEvent(new TurnEvent.Chunk(spoke ? "\n\n" + question : question));
            }
            listener.onEvent(event);
        }

        String ask(TurnEvent.AwaitingApproval paused, String sessionId) {
            Session in =
                    session != null ? session : sessions.find(caller, sessionId).orElseThrow();
            return questions.ask(
                    caller,
                    in,
                    paused.pending().stream()
                            .map(p -> new ConfirmationQuestions.Call(p.name(), p.arguments(), p.summary()))
                            .toList());
        }
    }
}
