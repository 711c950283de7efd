package dev.baton.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
