package dev.baton.server.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.app.config.ConfigLoader;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

class A2aSettingsTest {

    static A2aSettings parse(String yaml) throws Exception {
        return A2aSettings.parse(ConfigLoader.yamlMapper().readTree(yaml).path("a2a"));
    }

    static final AgentRegistry AGENTS = AgentRegistry.of(List.of(
            AgentDefinition.of("open", "p", "default", List.of()),
            AgentDefinition.of("staff", "p", "default", List.of()).withRoles(List.of("admin"))));

    @Test
    void by_default_every_agent_anyone_signed_in_may_use_has_a_card() throws Exception {
        A2aSettings settings = parse("other: 1");

        assertThat(settings.enabled()).isTrue();
        assertThat(settings.exposed(AGENTS)).extracting(AgentDefinition::id).containsExactly("open");
    }

    @Test
    void named_agents_are_exposed_and_an_unknown_one_stops_the_start() throws Exception {
        assertThat(parse("a2a: {agents: [staff]}").exposed(AGENTS))
                .extracting(AgentDefinition::id)
                .containsExactly("staff");
        assertThatThrownBy(() -> parse("a2a: {agents: [ghost]}").exposed(AGENTS))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("ghost");
    }

    @Test
    void bad_values_and_unknown_keys_are_errors() {
        assertThatThrownBy(() -> parse("a2a: {enabled: maybe}")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> parse("a2a: {publicUrl: ftp://x}")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> parse("a2a: {agents: tasks}")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> parse("a2a: {cards: true}")).isInstanceOf(RuntimeException.class);
    }

    @Test
    void the_public_url_loses_its_trailing_slash() throws Exception {
        assertThat(parse("a2a: {publicUrl: 'https://baton.example.com/'}").publicUrl())
                .isEqualTo("https://baton.example.com");
    }
}
