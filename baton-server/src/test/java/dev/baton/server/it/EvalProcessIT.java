package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton eval} as a user runs it: the exit code says whether the pass rate met the threshold, reports are
 * written where asked, a suite with a mistake stops with its file and line, and a shipped suite is found by name.
 */
class EvalProcessIT {

    private static final int OK = 0;
    private static final int CONFIG_ERROR = 3;
    private static final int BELOW_THRESHOLD = 7;

    /** One scenario that passes and one that cannot (the task script never calls delete_task for "add"). */
    static final String HALF_PASSING = """
            agent: tasks
            roles: [user]
            scenarios:
              - name: adds a task
                user: add buy milk
                expect:
                  toolArgs: [{tool: add_task, args: {title: buy milk}}]
              - name: expects the wrong tool
                user: add buy bread
                expect:
                  toolsCalled: delete_task
            """;

    @TempDir
    Path dir;

    private BatonProcess.Run baton(String... args) throws Exception {
        return BatonProcess.run(dir, Map.of(), "", args);
    }

    private void write(String file, String text) throws Exception {
        Path path = dir.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    @Test
    void below_the_threshold_the_exit_code_is_7_and_the_failed_check_is_named() throws Exception {
        write("suite.yaml", HALF_PASSING);

        BatonProcess.Run run = baton("eval", "--suite", "suite.yaml", "--threshold", "0.9", "--parallel", "2");

        assertThat(run.exitCode()).as(run.output()).isEqualTo(BELOW_THRESHOLD);
        assertThat(run.output())
                .contains("the bundled LLM SIMULATOR answers")
                .contains("  ok    adds a task")
                .contains("  FAIL  expects the wrong tool")
                .contains("turn 1: calls delete_task — tools called: add_task")
                .contains("suite: 1/2 runs passed (50.0%), threshold 90.0% — BELOW THRESHOLD");
        assertThat(run.hasStackTrace()).isFalse();
    }

    @Test
    void at_the_threshold_it_exits_0_and_writes_the_reports_asked_for() throws Exception {
        write("suite.yaml", HALF_PASSING);

        BatonProcess.Run run = baton(
                "eval",
                "--suite",
                "suite.yaml",
                "--threshold",
                "0.5",
                "--repeat",
                "2",
                "--report",
                "out/report.json",
                "--report",
                "out/report.md");

        assertThat(run.exitCode()).as(run.output()).isEqualTo(OK);
        assertThat(run.output()).contains("suite: 2/4 runs passed (50.0%), threshold 50.0% — PASSED");
        String json = Files.readString(dir.resolve("out/report.json"));
        assertThat(json)
                .contains("\"runCount\" : 4")
                .contains("\"passedRuns\" : 2")
                .contains("\"simulated\" : true")
                .contains("\"tools\" : [ \"add_task\" ]");
        String md = Files.readString(dir.resolve("out/report.md"));
        assertThat(md)
                .contains("> **SIMULATED MODEL.**")
                .contains("**PASSED**: 50.0% of runs passed (2/4), threshold 50.0%.")
                .contains("| expects the wrong tool |  | 0/2 | ❌ 0.0% |");
    }

    @Test
    void a_mistake_in_the_suite_stops_with_its_file_line_and_exit_code_3() throws Exception {
        write("suite.yaml", "agent: tasks\nscenarios:\n  - name: a\n    user: hi\n    expect:\n      toolCalled: x\n");

        BatonProcess.Run run = baton("eval", "--suite", "suite.yaml");

        assertThat(run.exitCode()).as(run.output()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output())
                .contains("baton eval: suite.yaml:6: unknown key 'toolCalled' in scenario 'a': expect (did you mean"
                        + " 'toolsCalled'?)");
        assertThat(run.hasStackTrace()).isFalse();
    }

    @Test
    void a_suite_is_found_by_name_in_evals_and_an_unknown_agent_is_a_configuration_error() throws Exception {
        write("evals/mini.yaml", "agent: tasks\nroles: [user]\nscenarios:\n  - {name: time, user: what time is it}\n");

        BatonProcess.Run found = baton("eval", "--suite", "mini");
        assertThat(found.exitCode()).as(found.output()).isEqualTo(OK);
        assertThat(found.output()).contains("  ok    time");

        BatonProcess.Run unknown = baton("eval", "--suite", "mini", "--agent", "nobody");
        assertThat(unknown.exitCode()).as(unknown.output()).isEqualTo(CONFIG_ERROR);
        assertThat(unknown.output()).contains("baton eval: no agent 'nobody' (agents: tasks,");

        BatonProcess.Run missing = baton("eval", "--suite", "nothing-here");
        assertThat(missing.exitCode()).isEqualTo(CONFIG_ERROR);
        assertThat(missing.output()).contains("baton eval: suite not found: nothing-here");
    }

    @Test
    void a_shipped_suite_runs_by_name_from_a_folder_without_evals_or_configuration() throws Exception {
        // dir is empty: no evals/, no baton.yaml; the learning domain's jar ships its suite like its agents
        BatonProcess.Run learning = baton("eval", "--suite", "learning", "--parallel", "4");

        assertThat(learning.exitCode()).as(learning.output()).isEqualTo(OK);
        assertThat(learning.output()).contains("learning-edge-cases: ").contains("PASSED");
        assertThat(dir.resolve("evals")).doesNotExist();

        BatonProcess.Run missing = baton("eval", "--suite", "nothing-here");
        assertThat(missing.output()).contains("shipped with Baton: learning, learning-platform, tasks");
    }
}
