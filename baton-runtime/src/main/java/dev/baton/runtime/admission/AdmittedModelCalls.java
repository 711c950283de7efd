package dev.baton.runtime.admission;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelResolver;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * The one way for work outside a turn — a content job, a tool that calls a model, an eval, a judge — to call a model:
 * under the same admission as a turn (the caller's rate limits, a budget reservation up to the agent's cost ceiling)
 * and through the same models (retries, breakers, the model-call metrics), with the call's usage priced and written
 * to {@code ai_usage} like a turn's. A domain is handed this (never the gateway), so it cannot call a model unadmitted.
 *
 * <pre>{@code
 * modelCalls.admit(caller, "learning");           // at the door that queues the work: refused like a message
 * ModelReply reply = modelCalls.call(new ModelCall(caller, "learning", jobSession, messages)); // later, on a worker
 * }</pre>
 */
public interface AdmittedModelCalls {

    /**
     * For a door that accepts work whose model call comes later (a queued job): takes one from the caller's rate
     * limits and checks that the caller's budgets can take a call of {@code agentId} now, so a caller a message would
     * be refused is refused here with the same answer. Holds nothing: {@link #call} reserves again when it runs.
     *
     * @throws RefusalException {@link Refusal.RateLimited} or {@link Refusal.BudgetExceeded};
     *     {@link Refusal.AgentUnavailable} when the agent is not configured
     */
    void admit(Principal caller, String agentId);

    /**
     * Makes one model call with the agent's model (its fallbacks, LLM timeout and temperature): reserves the agent's
     * cost ceiling against the caller's budgets, calls, writes the call's usage under {@code sessionId}, releases the
     * reservation. Takes nothing from the rate limits (the door that accepted the work did, see {@link #admit}).
     *
     * @throws RefusalException {@link Refusal.BudgetExceeded} (no model call is made);
     *     {@link Refusal.AgentUnavailable} when the agent is not configured
     * @throws dev.baton.core.model.ModelFailure when the model fails
     */
    ModelReply call(ModelCall call);

    /**
     * Model calls under {@code admission}, through {@code models} (the resolver turns use: retries, breakers and
     * metrics included), with usage written to {@code usage} at {@code prices}.
     */
    static AdmittedModelCalls over(
            TurnAdmission admission,
            ModelResolver models,
            AgentRegistry agents,
            ConversationStore usage,
            CostCalculator prices,
            Clock clock) {
        return new GatedModelCalls(admission, models, agents, usage, prices, clock);
    }

    /**
     * One model call made for a caller outside a turn.
     *
     * @param caller whose budgets it counts against (tenant and user)
     * @param agentId whose model, fallbacks, limits and temperature it uses
     * @param sessionId the conversation (or job) its usage is recorded under
     */
    record ModelCall(Principal caller, String agentId, String sessionId, List<ChatMessage> messages) {
        public ModelCall {
            Objects.requireNonNull(caller, "caller");
            Objects.requireNonNull(agentId, "agentId");
            Objects.requireNonNull(sessionId, "sessionId");
            messages = List.copyOf(messages);
            if (messages.isEmpty()) throw new IllegalArgumentException("a model call needs messages");
        }
    }
}
