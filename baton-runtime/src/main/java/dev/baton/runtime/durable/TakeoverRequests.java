package dev.baton.runtime.durable;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.TurnFence;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolError;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnResume;
import dev.baton.core.turn.TurnState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The request that goes on with a turn taken over from an instance that died: its last checkpoint, under the new
 * lease. A checkpoint taken after a model call whose tool calls were running when the instance died has those calls
 * pending: their outcome is unknown (they may have taken effect), so none runs again — the model reads that each may or
 * may not have happened. Calls that finished are in the checkpoint with their results and are never run again.
 */
final class TakeoverRequests {
    static final ToolError OUTCOME_UNKNOWN = new ToolError(
            "tool_outcome_unknown",
            "The server running this call stopped while it ran, so it may or may not have taken effect; it was not run"
                    + " again. Tell the user, and check before trying again.");

    private TakeoverRequests() {}

    static TurnRequest resuming(
            Instant now,
            LeasedTurn taken,
            TurnState stored,
            Principal principal,
            Session session,
            AgentDefinition agent,
            Cancellation cancellation) {
        Duration left = timeLeft(stored, now, agent);
        TurnState state = new TurnState(
                stored.turnId(),
                stored.sessionId(),
                stored.userMessageId(),
                left == null ? null : now.plus(left),
                stored.iteration(),
                stored.messages(),
                stored.answerText(),
                stored.model(),
                stored.toolCalls(),
                stored.usage(),
                stored.callCache(),
                stored.filters());
        TurnFence fence = taken.fence();
        return new TurnRequest(taken.requestId(), principal, session, agent, userContent(stored), cancellation, null)
                .resuming(new TurnResume(state, unknownOutcomes(stored.pendingToolCalls(), now), fence));
    }

    /**
     * What the turn has left of its request time: what it had at its deadline, and at least one model call's timeout
     * (the interrupted call is made again); null when the agent sets no request timeout.
     */
    static Duration timeLeft(TurnState state, Instant now, AgentDefinition agent) {
        if (state.deadline() == null || agent.limits().requestTimeout() == null) return null;
        Duration left = Duration.between(now, state.deadline());
        Duration floor = agent.limits().llmTimeout();
        return left.compareTo(floor) < 0 ? floor : left;
    }

    private static List<TurnResume.ToolDecision> unknownOutcomes(List<ToolCallRequest> pending, Instant now) {
        return pending.stream()
                .<TurnResume.ToolDecision>map(call -> new TurnResume.ToolDecision.Settled(
                        Ids.newId(),
                        call,
                        ToolCallOutcome.rejected(call, ToolCallState.FAILED, OUTCOME_UNKNOWN, now),
                        false))
                .toList();
    }

    /** The turn's user message as the model read it (after before_ai modules). */
    private static String userContent(TurnState state) {
        for (ChatMessage m : state.messages().reversed()) {
            if (m instanceof ChatMessage.User user) return user.content();
        }
        return "";
    }
}
