package dev.baton.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.config.ConfigNodes;
import dev.baton.runtime.config.Yaml;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** org → agent → assignment: each level overrides the one above it, key by key, for every limit of DESIGN §8. */
class ConfigCascadeTest {

    static JsonNode yaml(String text) {
        return Yaml.parse(text);
    }

    static final JsonNode ORG = yaml("""
            maxIterations: 4
            maxToolCallsPerTurn: 8
            maxToolCallsPerConversation: 40
            historyMessages: 16
            historyTokens: 3000
            llmTimeout: 20s
            toolTimeout: 5s
            requestTimeout: 40s
            maxMessages: 30
            maxSessionDuration: 2h
            inactivityTimeout: 12h
            """);

    /** The agent as the registry builds it: its limits block over the org's turn limits. */
    static AgentDefinition agent(String limitsYaml) {
        JsonNode definition = yaml("id: a\nlimits:\n" + limitsYaml.indent(2));
        TurnLimits turn = ConfigNodes.limits(definition.path("limits"), ConfigNodes.limits(ORG, TurnLimits.DEFAULTS));
        return AgentDefinition.of("a", "prompt", "simulator:default", List.of())
                .withLimits(turn)
                .withSessionLimits(SessionLimits.overrides(definition.path("limits"), "limits"));
    }

    static Assignment assignment(String limitsYaml) {
        JsonNode overrides = yaml("limits:\n" + limitsYaml.indent(2));
        return new Assignment("as", "a", "T", "I", "c", null, null, overrides);
    }

    final ConfigCascade cascade = ConfigCascade.fromOrgLimits(ORG);

    @Test
    void without_agent_or_assignment_settings_the_org_level_applies_and_unset_keys_keep_the_defaults() {
        SessionConfig c = cascade.resolve(agent("{}"), null);

        assertThat(c.turn())
                .isEqualTo(new TurnLimits(
                        4,
                        8,
                        40,
                        16,
                        3000,
                        128_000,
                        Duration.ofSeconds(20),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(40)));
        assertThat(c.session()).isEqualTo(new SessionLimits(30, Duration.ofHours(2), Duration.ofHours(12)));
        assertThat(ConfigCascade.fromOrgLimits(yaml("{}"))
                        .resolve(agent("{}"), null)
                        .session())
                .isEqualTo(new SessionLimits(null, null, Duration.ofHours(24)));
    }

    @Test
    void the_agent_level_overrides_the_org_level_key_by_key() {
        SessionConfig c = cascade.resolve(agent("""
                        maxIterations: 3
                        historyMessages: 10
                        toolTimeout: 2s
                        maxMessages: 12
                        inactivityTimeout: 1h
                        """), null);

        assertThat(c.turn().maxIterations()).isEqualTo(3);
        assertThat(c.turn().historyMessages()).isEqualTo(10);
        assertThat(c.turn().toolTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.turn().maxToolCallsPerTurn()).isEqualTo(8); // still the org's
        assertThat(c.session().maxMessages()).isEqualTo(12);
        assertThat(c.session().inactivityTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(c.session().maxSessionDuration()).isEqualTo(Duration.ofHours(2)); // still the org's
    }

    @Test
    void the_assignment_level_overrides_the_agent_level_key_by_key() {
        AgentDefinition a = agent("""
                maxIterations: 3
                historyMessages: 10
                maxMessages: 12
                inactivityTimeout: 1h
                """);
        SessionConfig c = cascade.resolve(a, assignment("""
                        maxIterations: 2
                        maxToolCallsPerConversation: 7
                        llmTimeout: 9s
                        maxMessages: 5
                        maxSessionDuration: 45m
                        """));

        assertThat(c.turn().maxIterations()).isEqualTo(2);
        assertThat(c.turn().maxToolCallsPerConversation()).isEqualTo(7);
        assertThat(c.turn().llmTimeout()).isEqualTo(Duration.ofSeconds(9));
        assertThat(c.turn().historyMessages()).isEqualTo(10); // the agent's
        assertThat(c.turn().requestTimeout()).isEqualTo(Duration.ofSeconds(40)); // the org's
        assertThat(c.session().maxMessages()).isEqualTo(5);
        assertThat(c.session().maxSessionDuration()).isEqualTo(Duration.ofMinutes(45));
        assertThat(c.session().inactivityTimeout()).isEqualTo(Duration.ofHours(1)); // the agent's
    }

    @Test
    void the_resolved_configuration_survives_its_json_form() {
        SessionConfig c = cascade.resolve(agent("maxMessages: 12"), assignment("maxSessionDuration: 45m"));

        assertThat(SessionConfig.fromJson(c.toJson())).isEqualTo(c);
    }

    @Test
    void the_sweep_bound_is_the_shortest_inactivity_timeout_of_any_level() {
        AgentDefinition a = agent("inactivityTimeout: 3h");
        Assignment as = assignment("inactivityTimeout: 20m");

        assertThat(cascade.shortestInactivityTimeout(List.of(a), List.of())).isEqualTo(Duration.ofHours(3));
        assertThat(cascade.shortestInactivityTimeout(List.of(a), List.of(as))).isEqualTo(Duration.ofMinutes(20));
    }
}
