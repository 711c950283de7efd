package dev.baton.server.metrics;

import dev.baton.core.hook.ModuleFailures;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.Objects;

/**
 * {@code baton_module_failures_total} by {@code module}, {@code hook} (its wire name, e.g. chat:before_ai) and
 * {@code kind} (threw, timed_out): the core's own {@link ModuleFailures} counts, read when scraped, so the core needs
 * no metrics library. A count appears once its module has failed at least once.
 */
final class ModuleFailureMeters implements Runnable {
    private final ModuleFailures failures;
    private final MeterRegistry registry;

    ModuleFailureMeters(ModuleFailures failures, MeterRegistry registry) {
        this.failures = Objects.requireNonNull(failures, "failures");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Registers a function counter for each module, hook and kind that failed since the last refresh. */
    @Override
    public void run() {
        for (ModuleFailures.Key key : failures.snapshot().keySet()) {
            // registering an existing meter again returns it: only new keys add a series
            FunctionCounter.builder(
                            "baton.module.failures", failures, f -> f.snapshot().getOrDefault(key, 0L))
                    .description("Module failures (throws, timeouts) by module, hook and kind")
                    .tags(
                            "module", key.module(),
                            "hook", key.hook().wireName(),
                            "kind", key.kind().name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
    }
}
