package dev.baton.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportFormatTest {

    private static final EvalSuite SUITE = SuiteReader.parse("""
            suite: todo
            agent: tasks
            scenarios:
              - {name: add one, category: create, user: add buy milk}
              - {name: delete, category: delete, user: delete buy milk}
            """, "evals/todo.yaml");

    private static TurnResult turn(long latencyMs, String cost, CheckResult... checks) {
        return new TurnResult(
                "add buy milk",
                "Done.",
                List.of("add_task"),
                List.of(),
                2,
                latencyMs,
                1000,
                50,
                new BigDecimal(cost),
                null,
                List.of(checks).stream().allMatch(CheckResult::passed),
                List.of(checks));
    }

    private static RunResult run(String scenario, int repetition, TurnResult turn) {
        List<String> failures = turn.checks().stream()
                .filter(c -> !c.passed())
                .map(c -> "turn 1: " + c.expectation() + " — " + c.detail())
                .toList();
        return new RunResult(
                scenario,
                repetition,
                failures.isEmpty(),
                turn.latencyMs(),
                turn.inputTokens() + turn.outputTokens(),
                turn.costUsd(),
                List.of(turn),
                List.of(),
                failures);
    }

    private static EvalReport report(boolean simulated, double threshold) {
        List<RunResult> runs = List.of(
                run("add one", 1, turn(100, "0.001", CheckResult.pass("calls add_task"))),
                run("add one", 2, turn(300, "0.003", CheckResult.pass("calls add_task"))),
                run(
                        "delete",
                        1,
                        turn(
                                200,
                                "0.002",
                                CheckResult.fail("waits for approval of delete_task", "no approval was asked for"))),
                run("delete", 2, turn(400, "0.002", CheckResult.pass("waits for approval of delete_task"))));
        return ReportSummary.of(
                SUITE,
                new EvalRunner.Options(2, 4, "simulator:default", simulated, threshold, true),
                Instant.parse("2026-11-25T00:00:00Z"),
                1234,
                runs,
                0);
    }

    @Test
    void the_summary_has_pass_rates_per_scenario_and_overall_latency_percentiles_and_cost() {
        EvalReport r = report(true, 0.95);

        assertThat(r.runCount()).isEqualTo(4);
        assertThat(r.passedRuns()).isEqualTo(3);
        assertThat(r.passRate()).isEqualTo(0.75);
        assertThat(r.thresholdMet()).isFalse();
        assertThat(r.scenarios())
                .extracting(ScenarioResult::name, ScenarioResult::passRate)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("add one", 1.0),
                        org.assertj.core.groups.Tuple.tuple("delete", 0.5));
        assertThat(r.scenarios().get(1).failures())
                .containsExactly("turn 1: waits for approval of delete_task — no approval was asked for");
        assertThat(r.latency()).isEqualTo(new EvalReport.Latency(4, 200, 400, 400));
        assertThat(r.perConversation().meanTokens()).isEqualTo(1050.0);
        assertThat(r.perConversation().meanCostUsd()).isEqualByComparingTo("0.002");
        assertThat(r.perConversation().maxCostUsd()).isEqualByComparingTo("0.003");
        assertThat(r.perConversation().totalCostUsd()).isEqualByComparingTo("0.008");
        assertThat(r.note()).contains("SIMULATOR").contains("not a model's skill");
        assertThat(r.summary())
                .isEqualTo(new EvalReport.Summary(
                        "todo",
                        "tasks",
                        "simulator:default",
                        true,
                        Instant.parse("2026-11-25T00:00:00Z"),
                        4,
                        0.75,
                        false,
                        200,
                        400,
                        1050.0,
                        r.perConversation().meanCostUsd()));
        assertThat(report(false, 0.75).thresholdMet()).isTrue();
        assertThat(report(false, 0.75).note()).isEmpty();
    }

    @Test
    void percentiles_are_nearest_rank() {
        long[] values = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200};
        assertThat(ReportSummary.percentile(values, 50)).isEqualTo(100);
        assertThat(ReportSummary.percentile(values, 95)).isEqualTo(190);
        assertThat(ReportSummary.percentile(new long[] {7}, 95)).isEqualTo(7);
    }

    @Test
    void json_holds_every_run_and_check_and_reads_back_as_the_same_record() {
        EvalReport r = report(true, 0.95);
        String json = ReportFormat.JSON.render(r);

        assertThat(json)
                .contains("\"passRate\" : 0.75")
                .contains("\"thresholdMet\" : false")
                .contains("\"p95Ms\" : 400")
                .contains("\"startedAt\" : \"2026-11-25T00:00:00Z\"")
                .contains("\"expectation\" : \"waits for approval of delete_task\"")
                .contains("\"simulated\" : true");
        assertThat(ReportFormat.readJson(json)).isEqualTo(r);
    }

    @Test
    void markdown_leads_with_the_verdict_and_the_simulator_warning_then_scenarios_and_failures() {
        String md = ReportFormat.MARKDOWN.render(report(true, 0.95));

        assertThat(md).startsWith("# Eval: todo (agent `tasks`)\n\n> **SIMULATED MODEL.**");
        assertThat(md).contains("**FAILED**: 75.0% of runs passed (3/4), threshold 95.0%.");
        assertThat(md).contains("| turn latency | p50 200 ms, p95 400 ms, max 400 ms over 4 turns |");
        assertThat(md).contains("| add one | create | 2/2 | ✅ 100.0% |");
        assertThat(md).contains("| delete | delete | 1/2 | ❌ 50.0% |");
        assertThat(md)
                .contains("### delete\n\n- turn 1: waits for approval of delete_task — no approval was asked for");

        String passed = ReportFormat.MARKDOWN.render(report(false, 0.5));
        assertThat(passed).contains("**PASSED**").doesNotContain("SIMULATED");
    }

    @Test
    void the_format_comes_from_the_file_name() {
        assertThat(ReportFormat.of(Path.of("out/report.json"))).isEqualTo(ReportFormat.JSON);
        assertThat(ReportFormat.of(Path.of("REPORT.MD"))).isEqualTo(ReportFormat.MARKDOWN);
        assertThatThrownBy(() -> ReportFormat.of(Path.of("report.txt")))
                .hasMessage("cannot tell the report format from 'report.txt': name it .json or .md");
    }
}
