package dev.baton.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.app.config.ConfigLoader;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsSettingsTest {

    static JsonNode yaml(String text) throws IOException {
        return ConfigLoader.yamlMapper().readTree(text).path("metrics");
    }

    @Test
    void no_section_means_metrics_on_and_open() {
        MetricsSettings s = MetricsSettings.parse(MissingNode.getInstance(), Map.of());

        assertThat(s).isEqualTo(new MetricsSettings(true, null));
    }

    @Test
    void the_section_turns_metrics_off_or_sets_a_token() throws IOException {
        assertThat(MetricsSettings.parse(yaml("metrics: {enabled: false}"), Map.of())
                        .enabled())
                .isFalse();
        assertThat(MetricsSettings.parse(yaml("metrics: {token: ' abc '}"), Map.of())
                        .token())
                .isEqualTo("abc");
        assertThat(MetricsSettings.parse(yaml("metrics: {token: '  '}"), Map.of())
                        .token())
                .as("a blank token is no token")
                .isNull();
    }

    @Test
    void the_environment_overrides_the_section() throws IOException {
        MetricsSettings s = MetricsSettings.parse(
                yaml("metrics: {enabled: true, token: from-yaml}"),
                Map.of("BATON_METRICS_ENABLED", "false", "BATON_METRICS_TOKEN", "from-env"));

        assertThat(s).isEqualTo(new MetricsSettings(false, "from-env"));
        assertThat(MetricsSettings.parse(yaml("metrics: {enabled: false}"), Map.of("BATON_METRICS_ENABLED", "on"))
                        .enabled())
                .isTrue();
    }

    @Test
    void values_of_the_wrong_type_are_refused() throws IOException {
        assertThatThrownBy(() -> MetricsSettings.parse(yaml("metrics: {enabled: maybe}"), Map.of()))
                .hasMessageContaining("metrics.enabled");
        assertThatThrownBy(() -> MetricsSettings.parse(yaml("metrics: {token: [a, b]}"), Map.of()))
                .hasMessageContaining("metrics.token");
        assertThatThrownBy(() -> MetricsSettings.parse(yaml("metrics: [on]"), Map.of()))
                .hasMessageContaining("mapping");
        assertThatThrownBy(
                        () -> MetricsSettings.parse(MissingNode.getInstance(), Map.of("BATON_METRICS_ENABLED", "sure")))
                .hasMessageContaining("BATON_METRICS_ENABLED");
    }

    @Test
    void the_token_never_shows_in_logs() {
        assertThat(new MetricsSettings(true, "s3cret").toString()).doesNotContain("s3cret");
    }
}
