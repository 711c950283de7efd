package dev.baton.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.agent.AgentConstraints;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.ApprovalPolicy;
import dev.baton.core.agent.AttachedResource;
import dev.baton.core.agent.SessionLimitOverrides;
import dev.baton.core.agent.TurnLimits;
import dev.baton.runtime.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** agents/*.yaml that are wrong stop the start with the file, the line and the key. */
class AgentFilesTest {

    @TempDir
    Path dir;

    private AgentRegistry load(String yaml) throws IOException {
        Files.writeString(dir.resolve("tutor.yaml"), yaml);
        return AgentRegistry.load(List.of(), List.of(dir), TurnLimits.DEFAULTS, "simulator:default");
    }

    @Test
    void a_misspelt_key_names_the_file_the_line_and_the_key_it_meant() {
        assertThatThrownBy(() -> load("id: tutor\nmodel: default\nsystemPromt: Help.\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("tutor.yaml") + ":3: unknown key 'systemPromt' (did you mean 'systemPrompt'?)");
    }

    @Test
    void a_limit_of_the_wrong_type_names_its_line() {
        assertThatThrownBy(() -> load("id: tutor\nsystemPrompt: Help.\nlimits:\n  maxIterations: lots\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        dir.resolve("tutor.yaml") + ":4: limits.maxIterations must be a whole number >= 1, got 'lots'");
    }

    @Test
    void an_unknown_limit_is_an_error_not_a_silent_default() {
        assertThatThrownBy(() -> load("id: tutor\nsystemPrompt: Help.\nlimits:\n  maxMesages: 10\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tutor.yaml:4: unknown key 'maxMesages' in limits (did you mean 'maxMessages'?)");
    }

    @Test
    void a_session_limit_out_of_range_fails_when_the_agent_is_loaded() {
        assertThatThrownBy(() -> load("id: tutor\nsystemPrompt: Help.\nlimits:\n  maxMessages: 0\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tutor.yaml:4: limits.maxMessages must be a whole number >= 1");
    }

    @Test
    void an_agent_without_a_system_prompt_says_so_with_the_file() {
        assertThatThrownBy(() -> load("id: tutor\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tutor.yaml")
                .hasMessageContaining("agent needs 'systemPrompt'");
    }

    @Test
    void a_well_formed_agent_loads_with_every_documented_key() throws IOException {
        AgentRegistry agents = load("""
                id: tutor
                name: Tutor
                description: Helps.
                model: default
                fallbackModels: [simulator:default]
                tools: [get_current_time]
                roles: [student]
                limits: {maxIterations: 3, maxMessages: 10, inactivityTimeout: 1h}
                modules: [{id: topic-guard}]
                constraints: {topics: [maths]}
                systemPrompt: Help with maths.
                """);
        assertThat(agents.find("tutor").orElseThrow().limits().maxIterations()).isEqualTo(3);
    }

    @Test
    void an_agent_file_is_read_once_into_typed_fields() throws IOException {
        AgentDefinition tutor = load("""
                        id: tutor
                        systemPrompt: Help with maths.
                        temperature: 0.2
                        limits: {maxIterations: 3, maxMessages: 10, inactivityTimeout: 1h}
                        modules:
                          - id: topic-guard
                            config: {minWords: 2}
                            priority: 5
                        constraints: {topics: [algebra, {name: geometry, keywords: [angle]}], deny: [cheat]}
                        approval: {default: never, tools: {delete_note: always}}
                        """).find("tutor").orElseThrow();

        assertThat(tutor.temperature()).isEqualTo(0.2);
        assertThat(tutor.sessionLimits()).isEqualTo(new SessionLimitOverrides(10, null, java.time.Duration.ofHours(1)));
        assertThat(tutor.modules()).singleElement().satisfies(m -> {
            assertThat(m.id()).isEqualTo("topic-guard");
            assertThat(m.config().path("minWords").asInt()).isEqualTo(2);
            assertThat(m.priority()).isEqualTo(5);
        });
        assertThat(tutor.constraints().topics())
                .containsExactly(
                        AgentConstraints.Topic.of("algebra"), new AgentConstraints.Topic("geometry", List.of("angle")));
        assertThat(tutor.constraints().deny()).containsExactly("cheat");
        assertThat(tutor.approval().policyFor("delete_note", ApprovalPolicy.WHEN_DESTRUCTIVE))
                .isEqualTo(ApprovalPolicy.ALWAYS);
        assertThat(tutor.approval().policyFor("create_note", ApprovalPolicy.WHEN_DESTRUCTIVE))
                .isEqualTo(ApprovalPolicy.NEVER);
    }

    @Test
    void a_mistaken_approval_or_module_entry_names_the_file_and_the_line() {
        assertThatThrownBy(() -> load("id: tutor\nsystemPrompt: Help.\napproval:\n  tools: {x: sometimes}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("tutor.yaml") + ":4: agent tutor: approval: ")
                .hasMessageContaining("never, always or when_destructive");
        assertThatThrownBy(() -> load("id: tutor\nsystemPrompt: Help.\nmodules:\n  - {id: guard, timeout: 500}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("tutor.yaml")
                        + ":4: agent tutor: module guard: 'timeout: 500' needs a unit, e.g. 500s or 250ms");
    }

    @Test
    void the_server_wide_temperature_reaches_only_agents_whose_file_sets_none() throws IOException {
        Files.writeString(dir.resolve("plain.yaml"), "id: plain\nsystemPrompt: Chat.\n");
        AgentRegistry agents =
                load("id: tutor\nsystemPrompt: Help.\ntemperature: 0.2\n").withDefaultTemperature(0.9);

        assertThat(agents.find("tutor").orElseThrow().temperature()).isEqualTo(0.2);
        assertThat(agents.find("plain").orElseThrow().temperature()).isEqualTo(0.9);
    }

    @Test
    void attached_resources_are_read_from_context_and_a_wrong_entry_names_its_line() throws IOException {
        AgentDefinition tutor = load("id: tutor\nsystemPrompt: Help.\ncontext:\n  mcpResources:\n"
                        + "    - { server: docs, uri: \"file:///handbook.md\" }\n")
                .find("tutor")
                .orElseThrow();
        assertThat(tutor.resources()).containsExactly(new AttachedResource("docs", "file:///handbook.md"));
        // a with-copy keeps them
        assertThat(tutor.withTemperature(0.5).resources()).isEqualTo(tutor.resources());

        assertThatThrownBy(() -> load("id: tutor\nsystemPrompt: Help.\ncontext:\n  mcpResources:\n"
                        + "    - { server: docs, url: \"file:///handbook.md\" }\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("tutor.yaml") + ":5: agent tutor: context.mcpResources[0]: ")
                .hasMessageContaining("unknown key 'url' (server, uri)");
        assertThatThrownBy(() -> load("id: tutor\nsystemPrompt: Help.\ncontext:\n  resources: []\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("agent tutor: context: unknown key 'resources' (mcpResources)");
    }
}
