package dev.baton.server.metrics;

import dev.baton.runtime.Refusal;
import dev.baton.wire.MeterNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Consumer;

/**
 * {@code baton_limit_refusals_total} by {@code kind}: messages a rate limit ({@code rate_limited}) or a budget
 * ({@code budget_exceeded}) turned away with a 429 before their turn ran.
 */
public final class RefusalMeters implements Consumer<Refusal> {
    private final Meter.MeterProvider<Counter> refusals;

    public RefusalMeters(MeterRegistry registry) {
        this.refusals = Counter.builder(MeterNames.LIMIT_REFUSALS)
                .description("Messages refused by a rate limit or a budget, by kind")
                .withRegistry(registry);
        // both series exist from the start, so that rate() sees the first refusal
        refusals.withTags("kind", "rate_limited");
        refusals.withTags("kind", "budget_exceeded");
    }

    @Override
    public void accept(Refusal refused) {
        refusals.withTags("kind", refused.code()).increment();
    }
}
