package dev.baton.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.runtime.config.ConfigException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class SuiteReaderTest {

    private static EvalSuite parse(String yaml) {
        return SuiteReader.parse(yaml, "evals/x.yaml");
    }

    private static void fails(String yaml, String message) {
        assertThatThrownBy(() -> parse(yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }

    @Test
    void a_suite_reads_into_scenarios_turns_and_expectations() {
        EvalSuite suite = parse("""
                suite: todo
                agent: tasks
                scenarios:
                  - name: add one
                    category: create
                    user: add buy milk
                    expect:
                      toolsCalled: add_task
                      toolArgs:
                        - tool: add_task
                          args: {title: buy milk}
                          argsMatch: {dueDate: '\\d{4}'}
                      answerContains: [buy milk, added]
                      answerMatches: 'milk$'
                      answerMaxLength: 200
                      maxIterations: 2
                      maxLatencyMs: 900
                      rubric: Confirms briefly.
                  - name: delete
                    maxCostUsd: 0.01
                    turns:
                      - user: add buy milk
                      - user: delete buy milk
                        expect: {approvalRequired: delete_task, noError: false, toolsNotCalled: [complete_task]}
                """);

        assertThat(suite.name()).isEqualTo("todo");
        assertThat(suite.agent()).isEqualTo("tasks");
        assertThat(suite.roles()).containsExactly("student");
        assertThat(suite.scenarios()).hasSize(2);
        Scenario add = suite.scenarios().getFirst();
        assertThat(add.category()).isEqualTo("create");
        assertThat(add.line()).isEqualTo(4);
        assertThat(add.turns()).singleElement().satisfies(t -> {
            assertThat(t.user()).isEqualTo("add buy milk");
            assertThat(t.expectations())
                    .extracting(Expectation::describe)
                    .containsExactly(
                            "calls add_task",
                            "calls add_task with {\"title\":\"buy milk\"}, dueDate ~ /\\d{4}/",
                            "answer contains 'buy milk'",
                            "answer contains 'added'",
                            "answer matches /milk$/",
                            "answer is at most 200 characters",
                            "ends without error",
                            "at most 2 model calls",
                            "answers within 900 ms",
                            "judge: Confirms briefly.");
        });
        Scenario delete = suite.scenarios().get(1);
        assertThat(delete.maxCostUsd()).isEqualByComparingTo(new BigDecimal("0.01"));
        assertThat(delete.turns()).hasSize(2);
        assertThat(delete.turns().getFirst().expectations())
                .extracting(Expectation::describe)
                .containsExactly("ends without error");
        assertThat(delete.turns().get(1).expectations())
                .extracting(Expectation::describe)
                .containsExactly("does not call complete_task", "waits for approval of delete_task");
    }

    @Test
    void the_suite_name_defaults_to_the_file_name() {
        EvalSuite suite = parse("agent: tasks\nscenarios:\n  - {name: a, user: hi}\n");
        assertThat(suite.name()).isEqualTo("x");
    }

    @Test
    void an_unknown_key_names_the_file_the_line_and_the_key_it_meant() {
        fails(
                """
                agent: tasks
                scenarios:
                  - name: add one
                    user: add buy milk
                    expect:
                      answerContain: milk
                """,
                "evals/x.yaml:6: unknown key 'answerContain' in scenario 'add one': expect (did you mean"
                        + " 'answerContains'?)");
    }

    @Test
    void a_value_of_the_wrong_type_is_refused_with_its_line() {
        fails("""
                agent: tasks
                scenarios:
                  - name: add one
                    user: add buy milk
                    expect:
                      maxIterations: many
                """, "evals/x.yaml:6: scenario 'add one': expect: maxIterations must be a whole number >= 1, got 'many'");
    }

    @Test
    void a_regular_expression_that_does_not_compile_is_refused_with_its_line() {
        assertThatThrownBy(() -> parse("""
                        agent: tasks
                        scenarios:
                          - name: add one
                            user: add buy milk
                            expect:
                              answerMatches: '(unclosed'
                        """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "evals/x.yaml:6: scenario 'add one': expect: answerMatches is not a valid regular"
                                + " expression: ");
    }

    @Test
    void a_scenario_needs_a_user_message_or_turns_but_not_both() {
        fails(
                "agent: tasks\nscenarios:\n  - name: empty\n    category: none\n",
                "evals/x.yaml:3: scenario 'empty': user is missing: give 'user' (one turn) or 'turns'");
        fails(
                "agent: tasks\nscenarios:\n  - name: both\n    user: hi\n    turns:\n      - user: hi\n",
                "evals/x.yaml:5: scenario 'both': turns cannot be given with 'user' or 'expect' (use one turn or a"
                        + " list of turns)");
    }

    @Test
    void two_scenarios_with_one_name_are_refused() {
        fails(
                "agent: tasks\nscenarios:\n  - {name: a, user: hi}\n  - {name: a, user: hello}\n",
                "evals/x.yaml:4: two scenarios are named 'a'");
    }

    @Test
    void tool_arguments_need_a_tool_and_something_to_match() {
        fails(
                """
                agent: tasks
                scenarios:
                  - name: add
                    user: add milk
                    expect:
                      toolArgs:
                        - tool: add_task
                """,
                "evals/x.yaml:7: scenario 'add': expect: toolArgs[0] needs 'args' or 'argsMatch' (or use toolsCalled)");
    }

    @Test
    void a_suite_without_an_agent_or_scenarios_is_refused() {
        fails("scenarios:\n  - {name: a, user: hi}\n", "evals/x.yaml: agent is missing");
        fails("agent: tasks\n", "evals/x.yaml: the suite has no 'scenarios'");
        fails("agent: tasks\nscenarios: []\n", "evals/x.yaml:2: scenarios must be a non-empty list of scenarios");
        fails("", "evals/x.yaml: the suite is empty");
    }

    @Test
    void yaml_that_does_not_parse_names_its_line() {
        assertThatThrownBy(() -> parse("agent: tasks\nscenarios:\n  - name: [unclosed\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("evals/x.yaml:");
    }
}
