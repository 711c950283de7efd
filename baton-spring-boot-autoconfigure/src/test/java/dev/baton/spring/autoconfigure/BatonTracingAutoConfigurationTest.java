package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.trace.TurnTracing;
import io.opentelemetry.api.OpenTelemetry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

/** When Baton's tracing turns on, what it traces with, and how an app turns it off or replaces it. */
class BatonTracingAutoConfigurationTest {
    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonTracingAutoConfiguration.class));

    @Test
    void an_open_telemetry_bean_turns_tracing_on_without_content() {
        runner.withBean(OpenTelemetry.class, OpenTelemetry::noop).run(context -> {
            TurnTracing tracing = context.getBean(TurnTracing.class);
            assertThat(tracing.isOn()).isTrue();
            assertThat(tracing.capturesContent()).isFalse();
        });
    }

    @Test
    void content_capture_is_a_property() {
        runner.withBean(OpenTelemetry.class, OpenTelemetry::noop)
                .withPropertyValues("baton.tracing.capture-content=true")
                .run(context -> assertThat(context.getBean(TurnTracing.class).capturesContent())
                        .isTrue());
    }

    @Test
    void without_an_open_telemetry_bean_nothing_is_created() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(TurnTracing.class);
            assertThat(context).doesNotHaveBean("batonTraceContextFilter");
        });
    }

    @Test
    void baton_tracing_enabled_false_turns_it_off_despite_the_bean() {
        runner.withBean(OpenTelemetry.class, OpenTelemetry::noop)
                .withPropertyValues("baton.tracing.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(TurnTracing.class);
                    assertThat(context).doesNotHaveBean("batonTraceContextFilter");
                });
    }

    @Test
    void the_apps_own_tracing_bean_replaces_batons() {
        TurnTracing own = TurnTracing.of(OpenTelemetry.noop(), true);
        runner.withBean(OpenTelemetry.class, OpenTelemetry::noop)
                .withBean("ownTracing", TurnTracing.class, () -> own)
                .run(context -> assertThat(context.getBean(TurnTracing.class)).isSameAs(own));
    }

    @Test
    void the_callers_trace_is_read_on_the_apis_routes_under_its_base_path() {
        runner.withBean(OpenTelemetry.class, OpenTelemetry::noop)
                .withPropertyValues("baton.api.base-path=/assistant/")
                .run(context -> {
                    FilterRegistrationBean<?> filter =
                            context.getBean("batonTraceContextFilter", FilterRegistrationBean.class);
                    assertThat(filter.getUrlPatterns()).containsExactly("/assistant/v1/*");
                });
    }

    @Test
    void an_open_telemetry_that_propagates_nothing_reads_w3c_trace_context() {
        assertThat(BatonTracingAutoConfiguration.CallersTrace.propagator(OpenTelemetry.noop())
                        .fields())
                .contains("traceparent", "tracestate");
    }
}
