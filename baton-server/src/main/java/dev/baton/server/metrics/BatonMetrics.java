package dev.baton.server.metrics;

import dev.baton.core.hook.ModuleActivity;
import dev.baton.core.hook.ModuleFailures;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meters of one Baton instance, in a Prometheus registry of its own (never Micrometer's global one, so that
 * several servers in one JVM — tests — keep separate counts), with the JVM and process binders bound. When metrics
 * are disabled the registry is an empty composite: every meter is a no-op and nothing is kept.
 *
 * <p>Counts that live elsewhere (module failures in the core) are copied into meters just before each scrape by
 * the refreshers registered with {@link #beforeScrape}.
 */
public final class BatonMetrics implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatonMetrics.class);

    /** The Prometheus text exposition format, version 0.0.4: what every Prometheus version scrapes. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final MetricsSettings settings;
    private final MeterRegistry registry;
    private final PrometheusMeterRegistry prometheus;
    private final List<Runnable> refreshers = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private BatonMetrics(MetricsSettings settings, MeterRegistry registry, PrometheusMeterRegistry prometheus) {
        this.settings = settings;
        this.registry = registry;
        this.prometheus = prometheus;
    }

    /** A registry for these settings: Prometheus with the JVM binders when enabled, a no-op one when not. */
    public static BatonMetrics create(MetricsSettings settings) {
        Objects.requireNonNull(settings, "settings");
        if (!settings.enabled()) {
            return new BatonMetrics(settings, new CompositeMeterRegistry(), null);
        }
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        BatonMetrics metrics = new BatonMetrics(settings, prometheus, prometheus);
        metrics.bindJvm();
        return metrics;
    }

    /** No meters and no /metrics: for wiring that does not care (tests, benchmarks, the library use). */
    public static BatonMetrics disabled() {
        return create(new MetricsSettings(false, null));
    }

    private void bindJvm() {
        JvmGcMetrics gc = new JvmGcMetrics();
        closeables.add(gc);
        // JvmThreadMetrics counts platform threads only (ThreadMXBean cannot see virtual ones): the request and turn
        // threads show up in baton_turns_running and the virtual thread scheduler's gauges instead
        List<MeterBinder> binders = List.of(
                new ClassLoaderMetrics(),
                new JvmMemoryMetrics(),
                gc,
                new JvmThreadMetrics(),
                new JvmInfoMetrics(),
                new ProcessorMetrics(),
                new UptimeMetrics(),
                new FileDescriptorMetrics(),
                new VirtualThreadSchedulerMetrics());
        binders.forEach(b -> b.bindTo(registry));
    }

    public MetricsSettings settings() {
        return settings;
    }

    public boolean enabled() {
        return prometheus != null;
    }

    /** Where Baton's meters are registered. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Publishes the core's module failure counts as {@code baton_module_failures_total}. */
    public void watch(ModuleFailures failures) {
        beforeScrape(new ModuleFailureMeters(failures, registry));
    }

    /** Publishes the modules' run times and blocks ({@link ModuleActivityMeters}). */
    public void watch(ModuleActivity activity) {
        beforeScrape(new ModuleActivityMeters(activity, registry));
    }

    /** Runs {@code refresher} before every scrape, to bring meters over counts kept elsewhere up to date. */
    public void beforeScrape(Runnable refresher) {
        refreshers.add(Objects.requireNonNull(refresher, "refresher"));
    }

    /**
     * Every meter in the Prometheus text format ({@link #CONTENT_TYPE}).
     *
     * @throws IllegalStateException when metrics are disabled
     */
    public String scrape() {
        if (prometheus == null) throw new IllegalStateException("metrics are disabled");
        for (Runnable refresher : refreshers) {
            try {
                refresher.run();
            } catch (RuntimeException e) {
                // a broken refresher must not take the other meters down with it
                log.warn("a metrics refresher failed", e);
            }
        }
        return prometheus.scrape();
    }

    @Override
    public void close() {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                log.debug("closing a metrics binder failed", e);
            }
        }
        registry.close();
    }
}
