package dev.baton.spring.autoconfigure;

import dev.baton.core.trace.TurnTracing;
import dev.baton.spring.trace.TraceContextFilter;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.TextMapPropagator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Baton's turns traced through the app's {@link OpenTelemetry} (Spring Boot's OpenTelemetry support, the Micrometer
 * Tracing bridge, or the app's own bean): {@code invoke_agent}, {@code chat} and {@code execute_tool} spans after the
 * GenAI conventions, as {@code baton serve} exports them. Without an OpenTelemetry bean, or with
 * {@code baton.tracing.enabled=false}, nothing here is created and turns carry no tracing cost.
 */
@AutoConfiguration(
        before = BatonAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration"
        })
@ConditionalOnClass(OpenTelemetry.class)
@ConditionalOnBean(OpenTelemetry.class)
@ConditionalOnProperty(prefix = "baton.tracing", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(BatonProperties.class)
public class BatonTracingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public TurnTracing batonTurnTracing(OpenTelemetry openTelemetry, BatonProperties properties) {
        return TurnTracing.of(openTelemetry, properties.tracing().captureContent());
    }

    /** A caller's {@code traceparent} on Baton's API becomes the parent of its turn's spans. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.filter.OncePerRequestFilter")
    @ConditionalOnProperty(prefix = "baton.api", name = "enabled", havingValue = "true", matchIfMissing = true)
    static class CallersTrace {

        @Bean
        @ConditionalOnMissingBean(name = "batonTraceContextFilter")
        public FilterRegistrationBean<TraceContextFilter> batonTraceContextFilter(
                OpenTelemetry openTelemetry, BatonProperties properties) {
            FilterRegistrationBean<TraceContextFilter> registration =
                    new FilterRegistrationBean<>(new TraceContextFilter(propagator(openTelemetry)));
            String base = properties.api().basePath().replaceAll("/+$", "");
            registration.addUrlPatterns(base + "/v1/*");
            return registration;
        }

        /** The app's propagator; W3C trace context when its OpenTelemetry propagates nothing. */
        static TextMapPropagator propagator(OpenTelemetry openTelemetry) {
            TextMapPropagator propagator = openTelemetry.getPropagators().getTextMapPropagator();
            return propagator.fields().isEmpty() ? W3CTraceContextPropagator.getInstance() : propagator;
        }
    }
}
