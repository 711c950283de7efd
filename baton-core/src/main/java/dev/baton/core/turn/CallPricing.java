package dev.baton.core.turn;

import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.id.Ids;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelReply;
import java.math.BigDecimal;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The usage row of one model call, priced; a call without a known price costs nothing rather than failing. Turns and
 * work outside a turn that calls a model (content generation) price their calls here, so usage reports agree.
 */
public final class CallPricing {
    private static final Logger log = LoggerFactory.getLogger(CallPricing.class);

    private final CostCalculator costs;
    private final Clock clock;

    public CallPricing(CostCalculator costs, Clock clock) {
        this.costs = costs;
        this.clock = clock;
    }

    /** The call's usage, not yet linked to the answer it belongs to. */
    UsageRecord usageOf(TurnRequest request, ModelBinding binding, ModelReply reply, long latencyMs) {
        return usageOf(
                request.principal().tenantId(),
                request.principal().userId(),
                request.session().id(),
                binding,
                reply,
                latencyMs);
    }

    /** The usage of a call made for {@code userId} in {@code sessionId}, linked to no message. */
    public UsageRecord usageOf(
            String tenantId, String userId, String sessionId, ModelBinding binding, ModelReply reply, long latencyMs) {
        String provider =
                reply.provider() != null ? reply.provider() : binding.gateway().provider();
        String model = reply.model() == null || reply.model().isBlank() ? binding.model() : reply.model();
        BigDecimal cost;
        try {
            cost = costs.cost(provider, model, reply.usage());
        } catch (RuntimeException e) {
            log.warn("no price for {}:{}: {}", provider, model, e.toString());
            cost = BigDecimal.ZERO;
        }
        return new UsageRecord(
                Ids.newId(),
                tenantId,
                userId,
                sessionId,
                null,
                provider,
                model,
                reply.usage().inputTokens(),
                reply.usage().outputTokens(),
                reply.usage().cachedInputTokens(),
                cost,
                latencyMs,
                clock.instant());
    }
}
