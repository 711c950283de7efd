package dev.baton.runtime.durable;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnResume;
import dev.baton.core.turn.TurnState;
import java.time.Duration;
import java.time.Instant;

/**
 * The request that goes on with a turn taken over from an instance that died: its last checkpoint, under the new
 * lease. A checkpoint taken after a model call whose tool calls were running when the instance died has those calls
 * pending: their outcome is unknown (they may have taken effect); {@link InFlightCalls} runs the idempotent ones again
 * and reports the others to the model or asks the user about them. Calls that finished are in the checkpoint with
 * their results and are never run again. A checkpoint without messages is a turn leased with its user message whose
 * context was not stored yet: the runner builds it from the stored message (the request's user content is then empty).
 */
final class TakeoverRequests {
    private TakeoverRequests() {}

    static TurnRequest resuming(
            Instant now,
            LeasedTurn taken,
            TurnState stored,
            Principal principal,
            Session session,
            AgentDefinition agent,
            Assignment assignment,
            Cancellation cancellation,
            InFlightCalls inFlight) {
        TurnState state = withTimeLeft(stored, now, agent);
        return new TurnRequest(
                        taken.requestId(), principal, session, agent, userContent(stored), cancellation, assignment)
                .resuming(new TurnResume(
                        state, inFlight.decide(agent, principal, stored.pendingToolCalls(), now), taken.fence()));
    }

    /**
     * The request that closes a turn taken over without going on ({@link dev.baton.core.turn.TurnRunner#closePaused}):
     * its answer so far is stored under the new lease, which that ends; the calls that were running are reported
     * unknown, none runs again.
     */
    static TurnRequest closing(
            Instant now,
            LeasedTurn taken,
            TurnState stored,
            Principal principal,
            Session session,
            AgentDefinition agent) {
        return new TurnRequest(
                        taken.requestId(), principal, session, agent, userContent(stored), new Cancellation(), null)
                .resuming(
                        new TurnResume(stored, InFlightCalls.reported(stored.pendingToolCalls(), now), taken.fence()));
    }

    /** The stored state with the time the turn has left from now as its deadline. */
    private static TurnState withTimeLeft(TurnState stored, Instant now, AgentDefinition agent) {
        Duration left = timeLeft(stored, now, agent);
        return new TurnState(
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

    /** The turn's user message as the model read it (after before_ai modules). */
    private static String userContent(TurnState state) {
        for (ChatMessage m : state.messages().reversed()) {
            if (m instanceof ChatMessage.User user) return user.content();
        }
        return "";
    }
}
