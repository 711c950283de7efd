package dev.baton.core.turn;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import java.util.Objects;

/**
 * One user message to run as a turn. The session has already been loaded for this principal and checked
 * to be active; {@code userContent} has already passed the input rules (length, control characters).
 *
 * @param assignment the session's assignment, null when it has none
 * @param resume the paused turn this request goes on with, null for a new turn; {@code userContent} is then the
 *     turn's user message as stored
 * @param supersession for a new turn whose user message is to be refused while the session has a paused turn: ends
 *     that turn, after which the message is appended again; null when the caller already ended any paused turn
 */
public record TurnRequest(
        String requestId,
        Principal principal,
        Session session,
        AgentDefinition agent,
        String userContent,
        Cancellation cancellation,
        Assignment assignment,
        TurnResume resume,
        PausedTurnSupersession supersession) {

    /** A new turn, or one going on with {@code resume}. */
    public TurnRequest(
            String requestId,
            Principal principal,
            Session session,
            AgentDefinition agent,
            String userContent,
            Cancellation cancellation,
            Assignment assignment,
            TurnResume resume) {
        this(requestId, principal, session, agent, userContent, cancellation, assignment, resume, null);
    }

    /** A new turn. */
    public TurnRequest(
            String requestId,
            Principal principal,
            Session session,
            AgentDefinition agent,
            String userContent,
            Cancellation cancellation,
            Assignment assignment) {
        this(requestId, principal, session, agent, userContent, cancellation, assignment, null);
    }

    /** A turn in a session that belongs to no assignment. */
    public TurnRequest(
            String requestId,
            Principal principal,
            Session session,
            AgentDefinition agent,
            String userContent,
            Cancellation cancellation) {
        this(requestId, principal, session, agent, userContent, cancellation, null);
    }

    public TurnRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(userContent, "userContent");
        Objects.requireNonNull(cancellation, "cancellation");
        if (!session.userId().equals(principal.userId())) {
            throw new IllegalArgumentException("session does not belong to the principal");
        }
        if (assignment != null && !assignment.id().equals(session.assignmentId())) {
            throw new IllegalArgumentException("the assignment is not the session's");
        }
        if (resume != null && !resume.state().sessionId().equals(session.id())) {
            throw new IllegalArgumentException("the paused turn is not the session's");
        }
        if (resume != null && supersession != null) {
            throw new IllegalArgumentException("a paused turn going on stores no new message");
        }
    }

    /** This request going on with a paused turn. */
    public TurnRequest resuming(TurnResume paused) {
        return new TurnRequest(requestId, principal, session, agent, userContent, cancellation, assignment, paused);
    }

    /** This request with its user message refused while the session has a paused turn, which {@code s} ends. */
    public TurnRequest supersedingWith(PausedTurnSupersession s) {
        return new TurnRequest(requestId, principal, session, agent, userContent, cancellation, assignment, resume, s);
    }

    /** This request in {@code now}, the same session as read again (after a paused turn of it ended). */
    public TurnRequest inSession(Session now) {
        if (!now.id().equals(session.id())) throw new IllegalArgumentException("not the request's session");
        return new TurnRequest(
                requestId, principal, now, agent, userContent, cancellation, assignment, resume, supersession);
    }
}
