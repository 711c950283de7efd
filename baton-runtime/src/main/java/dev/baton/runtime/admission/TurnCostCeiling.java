package dev.baton.runtime.admission;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.model.CostCalculator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The most one turn may cost, which a budget reserves before the turn runs: the configured
 * {@code budgets.maxCostPerTurnUsd}, or else {@code maxIterations} model calls that each send the whole context
 * ({@code maxContextTokens}) and get {@code maxOutputTokensPerCall} back, at the dearest of the agent's models.
 */
final class TurnCostCeiling {
    private final BudgetSettings settings;
    private final CostCalculator prices;

    TurnCostCeiling(BudgetSettings settings, CostCalculator prices) {
        this.settings = settings;
        this.prices = prices;
    }

    BigDecimal of(AgentDefinition agent) {
        if (settings.maxCostPerTurnUsd() != null) return settings.maxCostPerTurnUsd();
        if (agent == null) return BigDecimal.ZERO;
        List<String> models = new ArrayList<>();
        models.add(agent.model());
        models.addAll(agent.fallbackModels());
        BigDecimal dearestCall = BigDecimal.ZERO;
        for (String reference : models) {
            BigDecimal call =
                    worstCaseCall(reference, agent.limits().maxContextTokens(), settings.maxOutputTokensPerCall());
            dearestCall = dearestCall.max(call);
        }
        return dearestCall.multiply(BigDecimal.valueOf(agent.limits().maxIterations()));
    }

    private BigDecimal worstCaseCall(String reference, long inputTokens, long outputTokens) {
        int colon = reference.indexOf(':');
        if (colon < 0) return BigDecimal.ZERO;
        String provider = reference.substring(0, colon);
        String model = reference.substring(colon + 1);
        if (provider.equals("compatible")) {
            // compatible:<endpoint>[:<model>] is billed under the endpoint's own name
            int next = model.indexOf(':');
            provider = next < 0 ? model : model.substring(0, next);
            model = next < 0 ? "" : model.substring(next + 1);
        }
        return prices.worstCaseCall(provider, model, inputTokens, outputTokens).orElse(BigDecimal.ZERO);
    }
}
