package dev.baton.app.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.app.config.ConfigLoader;
import dev.baton.runtime.config.ConfigException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RemoteAgentSettingsTest {

    static List<RemoteAgentSettings> parse(String yaml, Map<String, String> env) throws Exception {
        return RemoteAgentSettings.parse(
                ConfigLoader.yamlMapper().readTree(yaml).path("a2a"), env);
    }

    @Test
    void a_remote_is_a_tool_a2a__name_needing_a2a_name_by_default() throws Exception {
        RemoteAgentSettings r = parse(
                        "a2a: {remotes: {weather: {url: 'http://h/a2a', headers: {X-Key: '${KEY}'}}}}",
                        Map.of("KEY", "k1"))
                .getFirst();

        assertThat(r.toolName()).isEqualTo("a2a__weather");
        assertThat(r.permissions()).containsExactly("a2a:weather");
        assertThat(r.headers()).containsEntry("X-Key", "k1");
        assertThat(r.timeout()).isEqualTo(RemoteAgentSettings.DEFAULT_TIMEOUT);
        assertThat(r.destructive()).isFalse();
    }

    @Test
    void configured_permissions_timeout_and_destructive_replace_the_defaults() throws Exception {
        RemoteAgentSettings r = parse(
                        "a2a: {remotes: {pay: {url: 'https://h', permissions: [pay:use], timeout: 5s, destructive: true}}}",
                        Map.of())
                .getFirst();

        assertThat(r.permissions()).containsExactly("pay:use");
        assertThat(r.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(r.destructive()).isTrue();
    }

    @Test
    void no_remotes_is_none() throws Exception {
        assertThat(parse("a2a: {agents: [tasks]}", Map.of())).isEmpty();
        assertThat(parse("other: 1", Map.of())).isEmpty();
    }

    @Test
    void bad_names_urls_keys_and_unset_variables_stop_the_start() {
        assertThatThrownBy(() -> parse("a2a: {remotes: {bad_name: {url: 'http://h'}}}", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("bad_name");
        assertThatThrownBy(() -> parse("a2a: {remotes: {w: {url: 'file:///etc/passwd'}}}", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("url");
        assertThatThrownBy(() -> parse("a2a: {remotes: {w: {}}}", Map.of())).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> parse("a2a: {remotes: {w: {url: 'http://h', token: x}}}", Map.of()))
                .isInstanceOf(RuntimeException.class)
                .hasMessageContaining("token");
        assertThatThrownBy(() -> parse("a2a: {remotes: {w: {url: 'http://h/${MISSING}'}}}", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("MISSING");
        assertThatThrownBy(() -> parse("a2a: {remotes: {w: {url: 'http://h', timeout: 0s}}}", Map.of()))
                .isInstanceOf(ConfigException.class);
    }
}
