package dev.baton.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.reflect.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The virtual thread scheduler's gauges, from {@code jdk.management.VirtualThreadSchedulerMXBean} (JDK 24 and
 * later; read reflectively because Baton's bytecode targets Java 21, where this binder binds nothing): how many
 * virtual threads are mounted on a carrier and how many wait for one, and the carrier pool's size. A queue that
 * grows while the pool is at its parallelism means carriers are pinned or busy with CPU work.
 */
final class VirtualThreadSchedulerMetrics implements MeterBinder {
    private static final Logger log = LoggerFactory.getLogger(VirtualThreadSchedulerMetrics.class);
    private static final String BEAN = "jdk.management.VirtualThreadSchedulerMXBean";

    @Override
    public void bindTo(MeterRegistry registry) {
        Object bean;
        Class<? extends PlatformManagedObject> type;
        try {
            type = Class.forName(BEAN).asSubclass(PlatformManagedObject.class);
            bean = ManagementFactory.getPlatformMXBean(type);
        } catch (ClassNotFoundException | IllegalArgumentException e) {
            log.debug("no virtual thread scheduler MXBean on this JDK ({}): no scheduler gauges", e.toString());
            return;
        }
        if (bean == null) return;
        gauge(
                registry,
                bean,
                type,
                "getMountedVirtualThreadCount",
                "jvm.threads.virtual.mounted",
                "mounted on a carrier");
        gauge(
                registry,
                bean,
                type,
                "getQueuedVirtualThreadCount",
                "jvm.threads.virtual.queued",
                "waiting for a carrier");
        gauge(registry, bean, type, "getPoolSize", "jvm.threads.virtual.carriers", "carrier threads in the pool");
        gauge(
                registry,
                bean,
                type,
                "getParallelism",
                "jvm.threads.virtual.parallelism",
                "the scheduler's target parallelism");
    }

    private static void gauge(
            MeterRegistry registry, Object bean, Class<?> type, String getter, String name, String description) {
        Method method;
        try {
            method = type.getMethod(getter);
        } catch (NoSuchMethodException e) {
            return;
        }
        Gauge.builder(name, bean, b -> read(method, b))
                .description("Virtual threads: " + description)
                .strongReference(true)
                .register(registry);
    }

    private static double read(Method method, Object bean) {
        try {
            return ((Number) method.invoke(bean)).doubleValue();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
