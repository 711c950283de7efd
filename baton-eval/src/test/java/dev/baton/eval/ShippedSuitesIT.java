package dev.baton.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.runtime.config.ConfigFile;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The suites the domains ship (found by name on the class path, as {@code baton eval --suite NAME} finds them) run through the real runtime (the agents, tools, domain services and stores of
 * {@code baton serve}) on a temporary SQLite database, with the bundled simulator answering over HTTP. That proves the
 * harness and the runtime, not a model's skill: the simulator's scripts match the user's words.
 */
class ShippedSuitesIT {

    private static EvalReport run(String name) {
        EvalSuite suite = ShippedSuites.onClassPath().find(name);
        try (EvalRuntime runtime =
                EvalRuntime.start(ConfigFile.none("baton.yaml"), Map.of(), suite.agent(), null, Clock.systemUTC())) {
            EvalRunner runner =
                    new EvalRunner(runtime.baton(), id -> runtime.user(id, suite.roles()), null, Clock.systemUTC());
            return runner.run(suite, new EvalRunner.Options(1, 4, runtime.model(), runtime.simulated(), 0.95, true));
        }
    }

    private static RunResult runOf(EvalReport report, String scenario) {
        return report.runs().stream()
                .filter(r -> r.scenario().equals(scenario))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void the_learning_agents_33_edge_cases_pass_on_the_simulator() {
        EvalReport report = run("learning");

        assertThat(report.scenarioCount()).isEqualTo(33);
        assertThat(report.simulated()).isTrue();
        assertThat(report.model()).isEqualTo("simulator:default");
        assertThat(report.note()).contains("SIMULATOR").contains("not a model's skill");
        // every case but the latency budget, which a loaded machine may miss once, passes outright
        assertThat(report.scenarios())
                .filteredOn(s -> !s.name().startsWith("31."))
                .allSatisfy(s -> assertThat(s.failures()).as(s.name()).isEmpty());
        assertThat(report.passRate()).isGreaterThanOrEqualTo(32.0 / 33);
        assertThat(report.thresholdMet()).isTrue();
        assertThat(report.rubricsSkipped()).isEqualTo(2);

        TurnResult confirmed = runOf(report, "6. \"yes\" confirms").turns().get(1);
        assertThat(confirmed.tools()).containsExactly("storeDecision", "generateContent");
        assertThat(confirmed.answer()).isEqualTo("Thank you. I'm putting that together now.");
        assertThat(confirmed.modelCalls()).isEqualTo(3);
        TurnResult restart =
                runOf(report, "1. \"learn something new\" restarts").turns().getFirst();
        assertThat(restart.tools()).containsExactly("storeDecision");
        assertThat(restart.checks())
                .extracting(CheckResult::expectation)
                .contains("does not call generateContent", "calls storeDecision with {\"decision\":\"restart\"}");
        assertThat(report.latency().turns()).isGreaterThan(33);
        assertThat(report.perConversation().meanTokens()).isPositive();
    }

    @Test
    void the_todo_flows_pass_on_the_simulator_and_a_delete_waits_for_approval() {
        EvalReport report = run("tasks");

        assertThat(report.scenarios())
                .allSatisfy(s -> assertThat(s.failures()).as(s.name()).isEmpty());
        assertThat(report.passRate()).isEqualTo(1.0);

        TurnResult delete =
                runOf(report, "deleting waits for the user's approval").turns().get(1);
        assertThat(delete.approvalsRequired()).containsExactly("delete_task");
        assertThat(delete.tools()).containsExactly("list_tasks");
        assertThat(delete.modelCalls()).isEqualTo(2);
        TurnResult two =
                runOf(report, "create two tasks in one message").turns().getFirst();
        assertThat(two.tools()).containsExactly("add_task", "add_task");
        assertThat(two.modelCalls()).isEqualTo(2);
    }

    @Test
    void the_learning_platforms_tool_catalogue_passes_on_the_simulator() {
        EvalReport report = run("learning-platform");

        assertThat(report.scenarios())
                .allSatisfy(s -> assertThat(s.failures()).as(s.name()).isEmpty());
        // every one of the platform agent's nine tools is exercised
        assertThat(report.runs().stream().flatMap(r -> r.turns().stream()).flatMap(t -> t.tools().stream()))
                .contains(
                        "list_courses",
                        "search_courses",
                        "enroll_in_course",
                        "get_my_enrollments",
                        "get_course_grades",
                        "add_to_cart",
                        "book_lab",
                        "ask_question",
                        "navigate_to_route");
    }
}
