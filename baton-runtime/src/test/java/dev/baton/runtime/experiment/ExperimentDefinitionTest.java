package dev.baton.runtime.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.runtime.agent.AgentRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentDefinitionTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final AgentRegistry AGENTS = AgentRegistry.of(List.of(
            AgentDefinition.of("learning", "Learning", "p", List.of()),
            AgentDefinition.of("learning-v2", "Learning v2", "p", List.of())));

    static JsonNode yaml(String text) throws Exception {
        return YAML.readTree(text);
    }

    @Test
    void a_configured_experiment_reads_with_the_designs_defaults_and_writes_back_the_same() throws Exception {
        ExperimentSettings s = ExperimentSettings.from(yaml("""
                        evaluateEvery: 10s
                        definitions:
                          orchestrator-v1:
                            baseAgent: learning
                            flag: agent_orchestrator_v1
                            arms:
                              - { name: classic, agent: learning, weight: 90 }
                              - { name: agent, agent: learning-v2, weight: 10 }
                            rollback: { maxP95Latency: 2s, minSample: 5 }
                            fallback: { agent: learning }
                        """), AGENTS);

        assertThat(s.evaluateEvery()).isEqualTo(Duration.ofSeconds(10));
        Experiment e = s.definitions().getFirst();
        assertThat(e.controlArm()).isEqualTo("classic");
        assertThat(e.flag()).isEqualTo("agent_orchestrator_v1");
        assertThat(e.triggers().maxP95Latency()).isEqualTo(Duration.ofSeconds(2));
        assertThat(e.triggers().maxCostPerConversation()).isEqualByComparingTo("0.02");
        assertThat(e.fallback().afterFailures()).isEqualTo(3);
        assertThat(ExperimentDefinition.fromJson(e.id(), ExperimentDefinition.toJson(e), 1))
                .isEqualTo(e);
    }

    @Test
    void an_unknown_key_a_missing_agent_and_an_unknown_agent_are_each_named() {
        assertThatThrownBy(() ->
                        ExperimentSettings.from(yaml("definitions: { x: { baseAgent: learning, arm: [] } }"), AGENTS))
                .hasMessageContaining("unknown key 'arm'");
        assertThatThrownBy(() -> ExperimentSettings.from(
                        yaml("definitions: { x: { baseAgent: learning, arms: [{ name: a, weight: 1 }, { name: b,"
                                + " agent: learning, weight: 1 }] } }"),
                        AGENTS))
                .hasMessageContaining("arms[0].agent is required");
        assertThatThrownBy(() -> ExperimentSettings.from(
                        yaml("definitions: { x: { baseAgent: learning, arms: [{ name: a, agent: learning },"
                                + " { name: b, agent: lerning-v3 }] } }"),
                        AGENTS))
                .hasMessageContaining("unknown agent 'lerning-v3'");
        assertThatThrownBy(() -> ExperimentSettings.from(
                        yaml("definitions: { x: { baseAgent: learning, arms: [{ name: a, agent: learning }],"
                                + " rollback: { maxErrorRate: 2 } } }"),
                        AGENTS))
                .hasMessageContaining("maxErrorRate must be between 0 and 1");
    }
}
