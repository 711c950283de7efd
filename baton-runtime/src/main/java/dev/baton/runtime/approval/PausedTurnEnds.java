package dev.baton.runtime.approval;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnResume;
import dev.baton.core.turn.TurnRunner;
import dev.baton.core.turn.TurnState;
import dev.baton.core.turn.TurnStateCodec;
import dev.baton.runtime.agent.AgentRegistry;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a paused turn without asking the model again, whoever decided that (a new message, the expiry, the sweep of
 * a dead instance's claim): the held calls are stored as their decisions say, the answer so far as cancelled, and the
 * turn's tool calls and usage with it ({@link TurnRunner#closePaused}).
 */
final class PausedTurnEnds {
    private static final Logger log = LoggerFactory.getLogger(PausedTurnEnds.class);

    private final ConversationStore conversations;
    private final AgentRegistry agents;
    private final TurnRunner runner;

    PausedTurnEnds(ConversationStore conversations, AgentRegistry agents, TurnRunner runner) {
        this.conversations = conversations;
        this.agents = agents;
        this.runner = runner;
    }

    /**
     * Ends {@code turn} in its session, as its owner, under its session's agent (or a stand-in when the agent is no
     * longer configured: nothing runs, the agent only names the turn).
     *
     * @return false when the session was deleted meanwhile: there is nothing to store the end in
     */
    boolean inItsSession(PausedTurn turn, List<TurnResume.ToolDecision> decisions, TurnEvent.Failed reason) {
        Optional<Session> session = conversations
                .findSession(turn.userId(), turn.sessionId())
                .filter(s -> s.tenantId().equals(turn.tenantId()));
        if (session.isEmpty()) return false;
        AgentDefinition agent = agents.find(session.get().agentId())
                .orElseGet(() -> AgentDefinition.of(session.get().agentId(), "-", "-", List.of()));
        end(
                turn,
                Principal.of(turn.tenantId(), turn.userId(), Set.of()),
                session.get(),
                agent,
                turn.requestId(),
                decisions,
                reason);
        return true;
    }

    /** Ends {@code turn} in {@code session}, which the caller has already found and holds. */
    void end(
            PausedTurn turn,
            Principal owner,
            Session session,
            AgentDefinition agent,
            String requestId,
            List<TurnResume.ToolDecision> decisions,
            TurnEvent.Failed reason) {
        TurnState state = TurnStateCodec.decode(turn.state());
        TurnRequest request = new TurnRequest(
                        requestId,
                        owner,
                        session,
                        agent,
                        PausedTurnRequests.userContent(state),
                        new Cancellation(),
                        null)
                .resuming(new TurnResume(state, decisions));
        runner.closePaused(request, MessageStatus.CANCELLED, reason);
    }

    /**
     * Ends the turn of {@code closed} calls through {@code end}, with the decisions the store closed them with. The
     * calls are decided (denied) whatever happens there; a failure only leaves the turn's partial answer unstored,
     * and is logged.
     */
    static void afterClosing(
            ApprovalStore.Closed closed, java.util.function.BiConsumer<PausedTurn, List<TurnResume.ToolDecision>> end) {
        try {
            end.accept(
                    closed.turn(),
                    closed.calls().stream().map(ApprovalDecisions::decision).toList());
        } catch (RuntimeException e) {
            log.error("could not store the end of paused turn {}", closed.turn().turnId(), e);
        }
    }
}
