package dev.baton.spring.trace;

import dev.baton.app.BatonApp;
import dev.baton.app.Instrumentation;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.trace.TurnTracing;
import dev.baton.providers.resilience.BreakerListener;
import dev.baton.runtime.BatonBuilder;

/**
 * The app's instrumentation (its meters, or none) with Baton's turns traced through the app's OpenTelemetry: the
 * two come from separate beans, so an app can replace either without losing the other.
 */
public final class TracedInstrumentation implements Instrumentation {
    private final Instrumentation instrumentation;
    private final TurnTracing tracing;

    public TracedInstrumentation(Instrumentation instrumentation, TurnTracing tracing) {
        this.instrumentation = instrumentation;
        this.tracing = tracing;
    }

    @Override
    public BreakerListener breakers() {
        return instrumentation.breakers();
    }

    @Override
    public ModelResolver models(ModelResolver models, CostCalculator costs) {
        return instrumentation.models(models, costs);
    }

    @Override
    public void configure(BatonBuilder builder) {
        instrumentation.configure(builder);
        builder.tracing(tracing);
    }

    @Override
    public void started(BatonApp app) {
        instrumentation.started(app);
    }
}
