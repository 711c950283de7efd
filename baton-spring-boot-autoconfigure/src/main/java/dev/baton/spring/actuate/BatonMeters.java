package dev.baton.spring.actuate;

import dev.baton.app.Instrumentation;
import dev.baton.providers.resilience.Breaker;
import dev.baton.providers.resilience.BreakerListener;
import dev.baton.runtime.BatonBuilder;
import dev.baton.wire.MeterNames;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Baton's core meters on the app's {@link MeterRegistry}, through the assembly's {@link Instrumentation} hooks, under
 * the names and tags {@code baton serve} uses: {@code baton.turns} and {@code baton.turn.duration} (by agent and
 * outcome), {@code baton.limit.refusals} (by kind), {@code baton.circuit.breaker.state} (1 for the state each breaker
 * is in) and {@code baton.circuit.breaker.transitions}. The server's fuller set (model calls, tokens, costs, tools,
 * modules, experiments) stays in baton-server, which the starter does not depend on.
 */
public final class BatonMeters implements Instrumentation {
    private static final List<CircuitBreaker.State> STATES =
            List.of(CircuitBreaker.State.CLOSED, CircuitBreaker.State.OPEN, CircuitBreaker.State.HALF_OPEN);

    private final MeterRegistry registry;
    private final Meter.MeterProvider<Counter> turns;
    private final Meter.MeterProvider<Timer> turnDuration;
    private final Meter.MeterProvider<Counter> refusals;
    private final Meter.MeterProvider<Counter> transitions;

    public BatonMeters(MeterRegistry registry) {
        this.registry = registry;
        this.turns = Counter.builder(MeterNames.TURNS)
                .description("Turns by agent and outcome")
                .withRegistry(registry);
        this.turnDuration = Timer.builder(MeterNames.TURN_DURATION)
                .description("Turn duration by agent and outcome")
                .withRegistry(registry);
        this.refusals = Counter.builder(MeterNames.LIMIT_REFUSALS)
                .description("Messages refused by a rate limit or a budget, by kind")
                .withRegistry(registry);
        this.transitions = Counter.builder(MeterNames.BREAKER_TRANSITIONS)
                .description("Circuit breaker state changes by kind, name, from and to")
                .withRegistry(registry);
    }

    @Override
    public BreakerListener breakers() {
        return new BreakerListener() {
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
        };
    }

    @Override
    public void configure(BatonBuilder builder) {
        builder.observer((request, outcome, status, nanos) -> {
            String agent = request.agent().id();
            turns.withTags("agent", agent, "outcome", status).increment();
            turnDuration.withTags("agent", agent, "outcome", status).record(nanos, TimeUnit.NANOSECONDS);
        });
        builder.refusalListener(
                refusal -> refusals.withTags("kind", refusal.code()).increment());
    }

    private static String kind(Breaker breaker) {
        return "toolSource".equals(breaker.kind()) ? "tool_source" : breaker.kind();
    }

    private static String label(CircuitBreaker.State state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
