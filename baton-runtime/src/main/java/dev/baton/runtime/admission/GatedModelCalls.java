package dev.baton.runtime.admission;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.turn.CallPricing;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link AdmittedModelCalls} over a runtime's admission, models, agents and usage store. */
final class GatedModelCalls implements AdmittedModelCalls {
    private static final Logger log = LoggerFactory.getLogger(GatedModelCalls.class);

    private final TurnAdmission admission;
    private final ModelResolver models;
    private final AgentRegistry agents;
    private final ConversationStore usage;
    private final CallPricing pricing;

    GatedModelCalls(
            TurnAdmission admission,
            ModelResolver models,
            AgentRegistry agents,
            ConversationStore usage,
            CostCalculator prices,
            Clock clock) {
        this.admission = Objects.requireNonNull(admission, "admission");
        this.models = Objects.requireNonNull(models, "models");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.usage = Objects.requireNonNull(usage, "usage");
        this.pricing = new CallPricing(prices, clock);
    }

    @Override
    public void admit(Principal caller, String agentId) {
        AgentDefinition agent = agent(agentId);
        admission.acquireRate(caller);
        // a check, not a hold: the call reserves again when it runs, against what was spent by then
        admission.reserveBudget(caller, agent).close();
    }

    @Override
    public ModelReply call(ModelCall call) {
        AgentDefinition agent = agent(call.agentId());
        try (BudgetReservation reserved = admission.reserveBudget(call.caller(), agent)) {
            ModelBinding binding = models.resolve(agent.model(), agent.fallbackModels());
            ModelRequest request = new ModelRequest(
                    binding.model(),
                    call.messages(),
                    List.of(),
                    agent.limits().llmTimeout(),
                    new Cancellation(),
                    agent.temperature());
            long started = System.nanoTime();
            ModelReply reply = binding.gateway().stream(request, delta -> {});
            // written before the reservation is released, so the spend is never counted zero times
            record(call, binding, reply, (System.nanoTime() - started) / 1_000_000);
            return reply;
        }
    }

    private AgentDefinition agent(String agentId) {
        return agents.find(agentId)
                .orElseThrow(() -> new RefusalException(
                        new Refusal.AgentUnavailable("the agent " + agentId + " is not configured")));
    }

    /** Writes the call's usage row; a failure is logged (the answer is kept: asking again would cost more). */
    private void record(ModelCall call, ModelBinding binding, ModelReply reply, long latencyMs) {
        Principal caller = call.caller();
        UsageRecord row =
                pricing.usageOf(caller.tenantId(), caller.userId(), call.sessionId(), binding, reply, latencyMs);
        try {
            usage.recordUsage(List.of(row));
        } catch (RuntimeException e) {
            log.error(
                    "a model call of {} for {} could not record its usage ({} input, {} output tokens, {} USD): {}",
                    call.agentId(),
                    caller.userId(),
                    row.inputTokens(),
                    row.outputTokens(),
                    row.costUsd(),
                    e.toString());
        }
    }
}
