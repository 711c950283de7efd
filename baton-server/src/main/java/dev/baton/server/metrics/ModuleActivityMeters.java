package dev.baton.server.metrics;

import dev.baton.core.hook.ModuleActivity;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The core's own {@link ModuleActivity} figures, read when scraped, by {@code module} and {@code hook} (its wire
 * name, e.g. chat:before_ai):
 *
 * <ul>
 *   <li>{@code baton_module_hook_duration_seconds_count} and {@code _sum}: runs of a module on a hook and the time
 *       they took (so {@code rate(_sum)/rate(_count)} is its mean time);
 *   <li>{@code baton_module_blocks_total}: messages (before_ai) and answers (after_ai) a module blocked.
 * </ul>
 *
 * A series appears once its module has run on its hook.
 */
final class ModuleActivityMeters implements Runnable {
    private final ModuleActivity activity;
    private final MeterRegistry registry;

    ModuleActivityMeters(ModuleActivity activity, MeterRegistry registry) {
        this.activity = Objects.requireNonNull(activity, "activity");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void run() {
        for (ModuleActivity.Key key : activity.keys()) {
            String module = key.module();
            String hook = key.hook().wireName();
            // registering an existing meter again returns it: only new keys add a series
            FunctionTimer.builder(
                            "baton.module.hook.duration",
                            activity,
                            a -> a.figures(key).runs(),
                            a -> a.figures(key).totalNanos(),
                            TimeUnit.NANOSECONDS)
                    .description("Runs of a module on a hook and the time they took")
                    .tags("module", module, "hook", hook)
                    .register(registry);
            FunctionCounter.builder(
                            "baton.module.blocks", activity, a -> a.figures(key).blocks())
                    .description("Messages and answers a module blocked, by module and hook")
                    .tags("module", module, "hook", hook)
                    .register(registry);
        }
    }
}
