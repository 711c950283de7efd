package dev.baton.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runtime an eval builds: the agent's model can be swapped, and what cannot work is a configuration error. */
class EvalRuntimeIT {

    private static final ConfigFile NO_FILE = ConfigFile.none("baton.yaml");

    @Test
    void the_model_option_replaces_the_agents_model_and_the_turns_run_on_it() {
        EvalSuite suite = SuiteReader.parse(
                "agent: tasks\nroles: [user]\nscenarios:\n  - {name: time, user: what time is it, expect: {toolsCalled: get_current_time}}\n",
                "x.yaml");
        try (EvalRuntime runtime =
                EvalRuntime.start(NO_FILE, Map.of(), "tasks", "simulator:variant", Clock.systemUTC())) {
            assertThat(runtime.model()).isEqualTo("simulator:variant");
            assertThat(runtime.simulated()).isTrue();
            assertThat(runtime.baton().agents().find("tasks").orElseThrow().model())
                    .isEqualTo("simulator:variant");

            EvalReport report = new EvalRunner(
                            runtime.baton(), id -> runtime.user(id, suite.roles()), null, Clock.systemUTC())
                    .run(suite, new EvalRunner.Options(1, 1, runtime.model(), true, 1.0, false));
            assertThat(report.passRate()).isEqualTo(1.0);
            assertThat(report.model()).isEqualTo("simulator:variant");
        }
    }

    @Test
    void a_model_no_provider_serves_an_unknown_agent_or_role_and_an_unserved_judge_are_configuration_errors() {
        assertThatThrownBy(() -> EvalRuntime.start(NO_FILE, Map.of(), "tasks", "openai:gpt-4o", Clock.systemUTC()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("openai:gpt-4o");
        assertThatThrownBy(() -> EvalRuntime.start(NO_FILE, Map.of(), "nobody", null, Clock.systemUTC()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("no agent 'nobody' (agents: tasks,");
        try (EvalRuntime runtime = EvalRuntime.start(NO_FILE, Map.of(), "tasks", null, Clock.systemUTC())) {
            assertThatThrownBy(() -> runtime.user("u", List.of("wizard")))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("the suite's role 'wizard' is not configured");
            assertThatThrownBy(() -> runtime.judge("openai:gpt-4o"))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("--judge openai:gpt-4o: ");
            assertThat(runtime.user("u", List.of("user")).permissions()).contains("tasks:write:self");
        }
    }
}
