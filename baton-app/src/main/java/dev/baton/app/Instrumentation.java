package dev.baton.app;

import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelResolver;
import dev.baton.providers.resilience.BreakerListener;
import dev.baton.runtime.BatonBuilder;

/**
 * What a host adds to the Baton it assembles, without the assembly knowing it: metrics, traces, gauges. baton-server
 * gives its Micrometer and OpenTelemetry wiring; an embedding program gives its own or {@link #NONE}.
 */
public interface Instrumentation {
    Instrumentation NONE = new Instrumentation() {};

    /** Told when a model provider's or a tool source's circuit breaker changes state. */
    default BreakerListener breakers() {
        return BreakerListener.NONE;
    }

    /** The model resolver every turn and every domain uses, wrapped (e.g. metered); {@code models} as it is. */
    default ModelResolver models(ModelResolver models, CostCalculator costs) {
        return models;
    }

    /** Adds observers and listeners to the runtime before it is built. */
    default void configure(BatonBuilder builder) {}

    /** Told once the whole Baton is built, before its background jobs start (gauges over its parts). */
    default void started(BatonApp app) {}
}
