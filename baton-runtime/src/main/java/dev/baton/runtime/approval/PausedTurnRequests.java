package dev.baton.runtime.approval;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnResume;
import dev.baton.core.turn.TurnState;
import dev.baton.core.turn.TurnStateCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** How a paused turn is asked to go on: the time it has left, and the turn request built from its stored state. */
final class PausedTurnRequests {
    private PausedTurnRequests() {}

    /**
     * The request that goes on with a claimed turn: its stored state with the deadline moved to {@code now} plus
     * the time it has {@code left}, and a decision per held call.
     */
    static TurnRequest resuming(
            Instant now,
            String requestId,
            Principal caller,
            Session session,
            AgentDefinition agent,
            Assignment assignment,
            ApprovalStore.Resumable resumable,
            List<TurnResume.ToolDecision> decisions,
            Duration left,
            Cancellation cancellation) {
        TurnState stored = TurnStateCodec.decode(resumable.turn().state());
        Instant deadline = stored.deadline() == null || left == null ? null : now.plus(left);
        TurnState state = new TurnState(
                stored.turnId(),
                stored.sessionId(),
                stored.userMessageId(),
                deadline,
                stored.iteration(),
                stored.messages(),
                stored.answerText(),
                stored.model(),
                stored.toolCalls(),
                stored.usage(),
                stored.callCache(),
                stored.filters());
        return new TurnRequest(requestId, caller, session, agent, userContent(state), cancellation, assignment)
                .resuming(new TurnResume(state, decisions));
    }

    /**
     * What the paused turn has left of its request time: the time it had when it paused (the wait does not count),
     * and at least the agent's tool timeout.
     */
    static Duration timeLeft(TurnState state, PausedTurn turn, AgentDefinition agent) {
        Duration requestTimeout = agent.limits().requestTimeout();
        if (state.deadline() == null) return requestTimeout;
        Duration left = Duration.between(turn.pausedAt(), state.deadline());
        Duration floor = agent.limits().toolTimeout();
        if (left.compareTo(floor) < 0) left = floor;
        return requestTimeout != null && left.compareTo(requestTimeout) > 0 ? requestTimeout : left;
    }

    /** The turn's user message as the model reads it (after before_ai modules). */
    static String userContent(TurnState state) {
        for (ChatMessage m : state.messages().reversed()) {
            if (m instanceof ChatMessage.User user) return user.content();
        }
        return "";
    }
}
