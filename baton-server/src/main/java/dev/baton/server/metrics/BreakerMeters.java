package dev.baton.server.metrics;

import dev.baton.providers.resilience.Breaker;
import dev.baton.providers.resilience.BreakerListener;
import dev.baton.wire.MeterNames;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;

/**
 * Circuit breaker meters, for model providers ({@code kind="provider"}) and tool sources ({@code kind="tool_source"}):
 *
 * <ul>
 *   <li>{@code baton_circuit_breaker_state} by kind, {@code name} and {@code state}: 1 for the state the breaker is
 *       in, 0 for the others (closed, open, half_open), so {@code == 1} selects the current one;
 *   <li>{@code baton_circuit_breaker_transitions_total} by kind, name, {@code from} and {@code to}.
 * </ul>
 *
 * A provider's breaker is created on its first call, so its series appear then.
 */
public final class BreakerMeters implements BreakerListener {
    private static final List<CircuitBreaker.State> STATES =
            List.of(CircuitBreaker.State.CLOSED, CircuitBreaker.State.OPEN, CircuitBreaker.State.HALF_OPEN);

    private final MeterRegistry registry;
    private final Meter.MeterProvider<Counter> transitions;

    public BreakerMeters(MeterRegistry registry) {
        this.registry = registry;
        this.transitions = Counter.builder(MeterNames.BREAKER_TRANSITIONS)
                .description("Circuit breaker state changes by kind, name, from and to")
                .withRegistry(registry);
    }

    @Override
    public void created(Breaker breaker) {
        for (CircuitBreaker.State state : STATES) {
            Gauge.builder(MeterNames.BREAKER_STATE, breaker, b -> b.state() == state ? 1 : 0)
                    .description("1 for the state a circuit breaker is in, 0 for the others")
                    .tags("kind", kind(breaker), "name", breaker.name(), "state", label(state))
                    .strongReference(true)
                    .register(registry);
        }
    }

    @Override
    public void transitioned(Breaker breaker, CircuitBreaker.State from, CircuitBreaker.State to) {
        transitions
                .withTags("kind", kind(breaker), "name", breaker.name(), "from", label(from), "to", label(to))
                .increment();
    }

    private static String kind(Breaker breaker) {
        return "toolSource".equals(breaker.kind()) ? "tool_source" : breaker.kind();
    }

    private static String label(CircuitBreaker.State state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
