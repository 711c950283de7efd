package dev.baton.runtime.assignment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentConstraints;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.Assignment;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.auth.Principal;
import dev.baton.core.config.ConfigProblem;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.Yaml;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AssignmentsTest {
    static final AgentRegistry AGENTS = AgentRegistry.of(List.of(new AgentDefinition(
            "study",
            "Study",
            "",
            "You help students.",
            "simulator:default",
            List.of(),
            List.of(),
            TurnLimits.DEFAULTS,
            List.of(),
            null,
            null,
            null,
            null,
            null)));

    static JsonNode yaml(String text) {
        return Yaml.parse(text);
    }

    static AgentConstraints constraints(String text) {
        return AgentConstraints.from(yaml(text));
    }

    static Principal inClasses(String... classes) {
        return new Principal("u", "t", null, null, Set.of("student"), Set.of(), List.of(classes));
    }

    @Test
    void assignments_are_read_with_their_window_class_and_limits() {
        Assignments all = Assignments.fromConfig(yaml("""
                        - id: essay
                          agentId: study
                          title: Essay
                          instructions: Outline it.
                          class: eng-101
                          availableAt: 2026-01-10T09:00:00Z
                          closesAt: 2026-02-01T00:00:00+01:00
                          limits: {maxMessages: 20}
                        """), AGENTS);

        Assignment a = all.find("essay").orElseThrow();
        assertThat(a.agentId()).isEqualTo("study");
        assertThat(a.classId()).isEqualTo("eng-101");
        assertThat(a.availableAt()).isEqualTo(Instant.parse("2026-01-10T09:00:00Z"));
        assertThat(a.closesAt()).isEqualTo(Instant.parse("2026-01-31T23:00:00Z"));
        assertThat(a.overrides().path("limits").path("maxMessages").asInt()).isEqualTo(20);
    }

    @Test
    void open_for_checks_class_then_window_and_unknown_is_404() {
        Assignments all = Assignments.fromConfig(yaml("""
                        - {id: essay, agentId: study, class: eng-101, availableAt: 2026-01-10T00:00:00Z, closesAt: 2026-02-01T00:00:00Z}
                        - {id: open, agentId: study}
                        """), AGENTS);
        Instant during = Instant.parse("2026-01-20T00:00:00Z");

        assertThat(all.openFor(inClasses("eng-101"), "essay", during).id()).isEqualTo("essay");
        assertThat(all.openFor(inClasses(), "open", during).id()).isEqualTo("open");
        assertThatThrownBy(() -> all.openFor(inClasses("bio-200"), "essay", during))
                .isInstanceOfSatisfying(
                        RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.Forbidden.class));
        assertThatThrownBy(() -> all.openFor(inClasses("eng-101"), "essay", Instant.parse("2026-01-09T23:59:59Z")))
                .isInstanceOfSatisfying(
                        RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.Forbidden.class));
        assertThatThrownBy(() -> all.openFor(inClasses("eng-101"), "essay", Instant.parse("2026-02-01T00:00:00Z")))
                .isInstanceOfSatisfying(
                        RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.Forbidden.class));
        assertThatThrownBy(() -> all.openFor(inClasses("eng-101"), "nope", during))
                .isInstanceOfSatisfying(
                        RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.NotFound.class));
    }

    @Test
    void bad_assignments_fail_at_startup() {
        assertThatThrownBy(() -> Assignments.fromConfig(yaml("- {id: x, agentId: ghost}"), AGENTS))
                .isInstanceOf(ConfigProblem.class)
                .hasMessageContaining("unknown agent");
        assertThatThrownBy(() ->
                        Assignments.fromConfig(yaml("- {id: x, agentId: study}\n- {id: x, agentId: study}"), AGENTS))
                .isInstanceOf(ConfigProblem.class)
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> Assignments.fromConfig(yaml("- {id: x, agentId: study, closesAt: soon}"), AGENTS))
                .isInstanceOf(ConfigProblem.class)
                .hasMessageContaining("closesAt");
        assertThatThrownBy(() -> Assignments.fromConfig(yaml("- {id: x, agentId: study, colour: red}"), AGENTS))
                .isInstanceOf(ConfigProblem.class)
                .hasMessageContaining("colour");
    }

    @Test
    void constraints_render_as_rules_and_topics_but_deny_patterns_stay_out_of_the_prompt() {
        String text = AssignmentPrompt.constraints(constraints("""
                topics: [essay writing, rhetoric]
                rules: [Never write the essay.]
                deny: ["(?i)homework answers"]
                tone: friendly
                """));

        assertThat(text)
                .isEqualTo(
                        "- Stay on these topics: essay writing, rhetoric.\n- Never write the essay.\n- tone: friendly");
        assertThat(AssignmentPrompt.constraints(constraints("Be brief."))).isEqualTo("Be brief.");
        assertThat(AssignmentPrompt.constraints(AgentConstraints.from(yaml("{}").path("constraints"))))
                .isNull();
    }
}
