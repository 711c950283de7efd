package dev.baton.server.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.config.ConfigProblem;
import dev.baton.runtime.config.Yaml;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TracingSettingsTest {

    @Test
    void tracing_is_off_without_a_section() {
        TracingSettings settings = TracingSettings.parse(null, Map.of());

        assertThat(settings.enabled()).isFalse();
        assertThat(settings.captureContent()).isFalse();
        assertThat(Tracing.start(settings)).isSameAs(Tracing.OFF);
        assertThat(Tracing.OFF.turns().isOn()).isFalse();
    }

    @Test
    void the_section_is_read_and_the_environment_overrides_its_switches() {
        TracingSettings settings = TracingSettings.parse(
                Yaml.parse("enabled: false\ncaptureContent: true\nendpoint: http://collector:4318\nserviceName: eu-1"),
                Map.of("BATON_TRACING_ENABLED", "true", "BATON_TRACING_CAPTURE_CONTENT", "false"));

        assertThat(settings.enabled()).isTrue();
        assertThat(settings.captureContent()).isFalse();
        assertThat(settings.endpoint()).isEqualTo(URI.create("http://collector:4318"));
        assertThat(Tracing.defaults(settings))
                .containsEntry("otel.exporter.otlp.endpoint", "http://collector:4318")
                .containsEntry("otel.service.name", "eu-1")
                .containsEntry("otel.exporter.otlp.protocol", "http/protobuf")
                .containsEntry("otel.metrics.exporter", "none")
                .containsEntry("otel.logs.exporter", "none");
    }

    @Test
    void a_misspelt_key_is_refused() {
        assertThatThrownBy(() -> TracingSettings.parse(Yaml.parse("enable: true"), Map.of()))
                .isInstanceOf(ConfigProblem.class)
                .hasMessage("unknown key 'enable' in tracing");
    }

    @Test
    void a_switch_that_is_not_a_boolean_is_refused() {
        assertThatThrownBy(() -> TracingSettings.parse(Yaml.parse("enabled: sometimes"), Map.of()))
                .isInstanceOf(ConfigProblem.class)
                .hasMessage("tracing.enabled must be true or false, got 'sometimes'");
        assertThatThrownBy(() -> TracingSettings.parse(null, Map.of("BATON_TRACING_ENABLED", "maybe")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("BATON_TRACING_ENABLED must be true or false");
    }

    @Test
    void an_endpoint_that_is_not_an_http_url_is_refused() {
        assertThatThrownBy(() -> TracingSettings.parse(Yaml.parse("endpoint: grpc://collector:4317"), Map.of()))
                .isInstanceOf(ConfigProblem.class)
                .hasMessage("tracing.endpoint must be an http or https URL, got grpc://collector:4317");
    }
}
