package dev.baton.spring.autoconfigure;

import dev.baton.app.Instrumentation;
import dev.baton.spring.actuate.BatonMeters;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Baton's meters on the app's {@link MeterRegistry} (Micrometer, e.g. from spring-boot-starter-actuator). */
@AutoConfiguration(
        before = BatonAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
        })
@ConditionalOnClass(MeterRegistry.class)
public class BatonMetricsAutoConfiguration {

    @Bean
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnMissingBean(Instrumentation.class)
    public Instrumentation batonMeters(MeterRegistry registry) {
        return new BatonMeters(registry);
    }
}
