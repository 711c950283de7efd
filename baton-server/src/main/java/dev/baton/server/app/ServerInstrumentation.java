package dev.baton.server.app;

import dev.baton.app.BatonApp;
import dev.baton.app.Instrumentation;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelResolver;
import dev.baton.providers.resilience.BreakerListener;
import dev.baton.runtime.Baton;
import dev.baton.runtime.BatonBuilder;
import dev.baton.server.metrics.BatonMetrics;
import dev.baton.server.metrics.BreakerMeters;
import dev.baton.server.metrics.ExperimentMeters;
import dev.baton.server.metrics.MeteredModelResolver;
import dev.baton.server.metrics.RefusalMeters;
import dev.baton.server.metrics.SessionMeters;
import dev.baton.server.metrics.TurnMetrics;
import dev.baton.server.trace.Tracing;

/** The server's Micrometer meters and OpenTelemetry traces on the Baton that {@link BatonApp} assembles. */
final class ServerInstrumentation implements Instrumentation {
    private final BatonMetrics metrics;
    private final Tracing tracing;
    private final BreakerMeters breakers;
    private final TurnMetrics turns;

    ServerInstrumentation(BatonMetrics metrics, Tracing tracing) {
        this.metrics = metrics;
        this.tracing = tracing;
        this.breakers = new BreakerMeters(metrics.registry());
        this.turns = new TurnMetrics(metrics.registry());
    }

    @Override
    public BreakerListener breakers() {
        return breakers;
    }

    @Override
    public ModelResolver models(ModelResolver models, CostCalculator costs) {
        return new MeteredModelResolver(models, metrics.registry(), costs);
    }

    @Override
    public void configure(BatonBuilder builder) {
        builder.refusalListener(new RefusalMeters(metrics.registry()))
                .experimentListener(new ExperimentMeters(metrics.registry()))
                .observer(turns)
                .tracing(tracing.turns());
    }

    @Override
    public void started(BatonApp app) {
        Baton baton = app.baton();
        turns.watching(baton.runningTurns());
        RuntimeGauges.register(app.database(), baton, metrics.registry());
        metrics.watch(baton.modules().failures());
        metrics.watch(baton.modules().activity());
        baton.sessionEvents().add(new SessionMeters(metrics.registry()));
    }
}
