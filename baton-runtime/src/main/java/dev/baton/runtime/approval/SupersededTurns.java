package dev.baton.runtime.approval;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnEvent;
import java.time.Clock;
import java.util.Optional;

/**
 * A new message's part in approvals ({@link Approvals#supersede} runs it): the calls the session's paused turn waits
 * on are denied — as {@code superseded}, or as {@code denied} with the message as the comment when it answered the
 * confirmation question in other words — and the turn ends without the model, its answer so far stored as cancelled.
 */
final class SupersededTurns {
    private static final TurnEvent.Failed SUPERSEDED = new TurnEvent.Failed(
            "approval_superseded", "A new message denied the tool calls waiting for approval.", false);
    private static final TurnEvent.Failed DENIED_IN_WORDS = new TurnEvent.Failed(
            "approval_denied", "The user answered the confirmation with a new message, which denied the calls.", false);

    private final ApprovalStore store;
    private final PausedTurnEnds ends;
    private final Clock clock;

    SupersededTurns(ApprovalStore store, PausedTurnEnds ends, Clock clock) {
        this.store = store;
        this.ends = ends;
        this.clock = clock;
    }

    /** @param reply the message's words when it answered the question with neither yes nor no; null for a new message */
    boolean supersede(Principal caller, Session session, AgentDefinition agent, String requestId, String reply) {
        Optional<PausedTurn> paused = store.pausedTurn(caller.tenantId(), caller.userId(), session.id());
        if (paused.isEmpty()) return false;
        boolean newMessage = reply == null;
        Optional<ApprovalStore.Closed> closed = store.close(
                paused.get().turnId(),
                newMessage ? ApprovalStatus.SUPERSEDED : ApprovalStatus.DENIED,
                caller.userId(),
                newMessage ? "the user sent a new message instead" : reply,
                clock.instant());
        if (closed.isEmpty()) return false;
        TurnEvent.Failed reason = newMessage ? SUPERSEDED : DENIED_IN_WORDS;
        PausedTurnEnds.afterClosing(
                closed.get(),
                (turn, decisions) -> ends.end(turn, caller, session, agent, requestId, decisions, reason));
        return true;
    }
}
