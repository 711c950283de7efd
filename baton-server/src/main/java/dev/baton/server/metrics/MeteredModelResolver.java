package dev.baton.server.metrics;

import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelResolver;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;

/**
 * Decorates the resolver the turn runner uses so that every model call it resolves is metered (see
 * {@link ModelCallMetrics}). It sits outside retries and fallbacks: one turn's model call is one observation, however
 * many attempts and providers it took, labelled with the provider and model that answered.
 */
public final class MeteredModelResolver implements ModelResolver {
    private final ModelResolver delegate;
    private final ModelCallMetrics metrics;

    /** @param costs prices a call's tokens, as the turn runner does for ai_usage */
    public MeteredModelResolver(ModelResolver delegate, MeterRegistry registry, CostCalculator costs) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.metrics = new ModelCallMetrics(registry, costs);
    }

    @Override
    public ModelBinding resolve(String reference) {
        return metered(delegate.resolve(reference));
    }

    @Override
    public ModelBinding resolve(String primary, List<String> fallbacks) {
        return metered(delegate.resolve(primary, fallbacks));
    }

    private ModelBinding metered(ModelBinding binding) {
        return new ModelBinding(
                binding.reference(),
                new MeteredModelGateway(binding.gateway(), binding.model(), metrics),
                binding.model());
    }
}
