package dev.baton.providers.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ResilienceConfigTest {

    private static JsonNode yaml(String text) throws Exception {
        return new ObjectMapper(new YAMLFactory()).readTree(text).path("resilience");
    }

    @Test
    void no_section_means_the_documented_defaults() {
        ResilienceConfig config = ResilienceConfig.from(MissingNode.getInstance());

        assertThat(config.models().timeToFirstToken()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.models().timeoutRetryFactor()).isEqualTo(1.5);
        assertThat(config.models().retryDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.models().breaker()).isEqualTo(new BreakerSettings(3, Duration.ofSeconds(60), 1));
        assertThat(config.tools()).isEqualTo(new BreakerSettings(5, Duration.ofSeconds(30), 1));
    }

    @Test
    void every_key_can_be_set_and_unset_keys_keep_their_defaults() throws Exception {
        ResilienceConfig config = ResilienceConfig.from(yaml("""
                resilience:
                  timeToFirstToken: 8s
                  timeoutRetryFactor: 2
                  retryDelay: 500ms
                  retryJitter: 0.1
                  modelBreaker: {failures: 4, openFor: 2m, halfOpenProbes: 2}
                  toolBreaker: {openFor: 10s}
                """));

        assertThat(config.models().timeToFirstToken()).isEqualTo(Duration.ofSeconds(8));
        assertThat(config.models().timeoutRetryFactor()).isEqualTo(2.0);
        assertThat(config.models().retryDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.models().retryJitter()).isEqualTo(0.1);
        assertThat(config.models().breaker()).isEqualTo(new BreakerSettings(4, Duration.ofMinutes(2), 2));
        assertThat(config.tools()).isEqualTo(new BreakerSettings(5, Duration.ofSeconds(10), 1));
    }

    @Test
    void impossible_values_are_configuration_errors_that_name_the_section() throws Exception {
        assertThatThrownBy(() -> ResilienceConfig.from(yaml("resilience: {modelBreaker: {failures: 0}}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("resilience")
                .hasMessageContaining("resilience.modelBreaker.failures");
        assertThatThrownBy(() -> ResilienceConfig.from(yaml("resilience: {timeoutRetryFactor: 0.5}")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ResilienceConfig.from(yaml("resilience: {retryDelay: soon}")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
