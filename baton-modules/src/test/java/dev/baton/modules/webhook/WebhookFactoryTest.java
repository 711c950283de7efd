package dev.baton.modules.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.Module;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebhookFactoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Module create(String config) throws Exception {
        return new WebhookFactory(Clock.systemUTC(), Map.of("HOOK_SECRET", "from-the-environment-123"))
                .create(JSON.readTree(config));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"secret\": \"0123456789abcdef\"}|is required",
                "{\"url\": \"ftp://example.com/x\", \"secret\": \"0123456789abcdef\"}|http(s)",
                "{\"url\": \"/relative\", \"secret\": \"0123456789abcdef\"}|http(s)",
                "{\"url\": \"https://u:p@example.com/x\", \"secret\": \"0123456789abcdef\"}|credentials",
                "{\"url\": \"https://example.com/x\"}|exactly one",
                "{\"url\": \"https://example.com/x\", \"secret\": \"short\"}|at least 16",
                "{\"url\": \"https://example.com/x\", \"secretEnv\": \"MISSING\"}|not set",
                "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"hooks\": [\"nope\"]}|nope",
                "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"timeout\": \"soon\"}|duration",
                "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"timeout\": 2000}|needs a unit, e.g. 2000s or 250ms",
                "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"timeout\": \"-2s\"}|must not be negative",
                "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"timeout\": \"0s\"}|longer than zero",
                "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"timeout\": [1]}|duration",
                "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"failClosed\": true}|unknown",
            })
    void rejects_invalid_configuration(String config, String problem) {
        assertThatThrownBy(() -> create(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(problem);
    }

    @org.junit.jupiter.api.Test
    void a_timeout_without_a_unit_names_the_module_and_the_key() {
        assertThatThrownBy(() -> create(
                        "{\"url\": \"https://example.com/x\", \"secret\": \"0123456789abcdef\", \"timeout\": 2}"))
                .hasMessage("webhook: config 'timeout: 2' needs a unit, e.g. 2s or 250ms");
    }

    @org.junit.jupiter.api.Test
    void reads_the_secret_from_the_environment_and_hooks_and_timeout_from_config() throws Exception {
        Module m = create("{\"url\": \"https://hooks.example.com/baton\", \"secretEnv\": \"HOOK_SECRET\","
                + " \"hooks\": [\"chat:before_ai\", \"chat:after_ai\", \"session:end\"], \"timeout\": \"1500ms\"}");

        assertThat(m.descriptor().id()).isEqualTo("webhook");
        assertThat(m.descriptor().hooks()).containsExactlyInAnyOrder(Hook.BEFORE_AI, Hook.AFTER_AI, Hook.SESSION_END);
        assertThat(m.descriptor().timeout())
                .as("a margin over the HTTP timeout")
                .hasMillis(1750);
    }

    @org.junit.jupiter.api.Test
    void defaults_to_a_fail_open_before_ai_hook() throws Exception {
        Module m = create("{\"url\": \"http://127.0.0.1:9/x\", \"secret\": \"0123456789abcdef\"}");

        assertThat(m.descriptor().hooks()).containsExactly(Hook.BEFORE_AI);
        assertThat(m.descriptor().failClosed()).isFalse();
        assertThat(m.descriptor().priority()).isEqualTo(50);
    }
}
