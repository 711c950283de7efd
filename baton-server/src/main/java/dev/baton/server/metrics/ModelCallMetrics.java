package dev.baton.server.metrics;

import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelReply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Model call meters, labelled by {@code provider} and {@code model} the way ai_usage rows are (the answering
 * provider of a fallback chain, the model as the provider named it), so the numbers agree with
 * {@code GET /v1/admin/usage}:
 *
 * <ul>
 *   <li>{@code baton_model_call_duration_seconds} by provider, model and {@code outcome} ({@code ok} or the failure
 *       kind: rate_limited, unavailable, timeout, authentication, bad_request, cancelled);
 *   <li>{@code baton_model_tokens_total} by provider, model and {@code direction} (input, output);
 *   <li>{@code baton_model_cost_usd_total} by provider and model, priced by the configured price table.
 * </ul>
 */
final class ModelCallMetrics {
    private static final Logger log = LoggerFactory.getLogger(ModelCallMetrics.class);
    private static final Duration[] BUCKETS =
            Buckets.of("100ms", "250ms", "500ms", "1s", "2.5s", "5s", "10s", "20s", "30s", "60s", "120s");

    private final CostCalculator costs;
    private final Meter.MeterProvider<Timer> calls;
    private final Meter.MeterProvider<Counter> tokens;
    private final Meter.MeterProvider<Counter> cost;

    ModelCallMetrics(MeterRegistry registry, CostCalculator costs) {
        this.costs = costs;
        this.calls = Timer.builder("baton.model.call.duration")
                .description("Model calls (retries and fallbacks included) by provider, model and outcome")
                .serviceLevelObjectives(BUCKETS)
                .withRegistry(registry);
        this.tokens = Counter.builder("baton.model.tokens")
                .description("Tokens the model providers reported, by provider, model and direction")
                .withRegistry(registry);
        this.cost = Counter.builder("baton.model.cost.usd")
                .description("What model calls cost in USD by the configured prices, by provider and model")
                .withRegistry(registry);
    }

    void succeeded(String gatewayProvider, String requestedModel, ModelReply reply, long nanos) {
        String provider = reply.provider() != null ? reply.provider() : gatewayProvider;
        String model = reply.model() == null || reply.model().isBlank() ? requestedModel : reply.model();
        calls.withTags("provider", provider, "model", model, "outcome", "ok").record(nanos, TimeUnit.NANOSECONDS);
        tokens.withTags("provider", provider, "model", model, "direction", "input")
                .increment(reply.usage().inputTokens());
        tokens.withTags("provider", provider, "model", model, "direction", "output")
                .increment(reply.usage().outputTokens());
        cost.withTags("provider", provider, "model", model).increment(price(provider, model, reply));
    }

    void failed(String provider, String model, String kind, long nanos) {
        calls.withTags("provider", provider, "model", model, "outcome", kind.toLowerCase(Locale.ROOT))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    private double price(String provider, String model, ModelReply reply) {
        try {
            BigDecimal usd = costs.cost(provider, model, reply.usage());
            return usd == null ? 0 : usd.doubleValue();
        } catch (RuntimeException e) {
            // the turn runner logs a missing price already; the cost counter simply does not move
            log.debug("no price for {}:{}: {}", provider, model, e.toString());
            return 0;
        }
    }
}
