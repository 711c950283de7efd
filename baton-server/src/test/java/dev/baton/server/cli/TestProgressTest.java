package dev.baton.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/test-progress.sh}, the filter {@code ./baton test} runs Maven's output through, fed a recorded log:
 * the whole log goes on unchanged, and the terminal gets a line per module, each module's totals and every failure in
 * full, without Maven's own advice after {@code -> [Help 1]} nor the tests' log lines.
 */
class TestProgressTest {

    @TempDir
    Path dir;

    @Test
    void the_terminal_gets_modules_totals_and_failures_in_full_and_the_log_gets_everything() throws Exception {
        byte[] log;
        try (InputStream in = getClass().getResourceAsStream("/launcher/maven-output.log")) {
            log = in.readAllBytes();
        }
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        Process p = new ProcessBuilder(
                        "bash", Path.of("..", "scripts", "test-progress.sh").toString())
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        try (var in = p.getOutputStream()) {
            in.write(log);
        }
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();

        assertThat(Files.readAllBytes(stdout)).isEqualTo(log);
        List<String> shown = Files.readAllLines(stderr, StandardCharsets.UTF_8);
        assertThat(shown)
                .anyMatch(l -> l.matches("baton: \\[3/23\\] +baton-core +\\d+ s"))
                .anyMatch(l -> l.matches("baton: \\[18/23\\] +baton-server +\\d+ s"))
                .contains(
                        "baton:          unit tests         Tests run: 403, Failures: 0, Errors: 0, Skipped: 0",
                        "baton:          integration tests  Tests run: 335, Failures: 1, Errors: 0, Skipped: 0")
                // the failure in full: its line, the assertion's message (a line starting with "[" included), the trace
                .containsSubsequence(
                        "[ERROR] dev.baton.server.it.StalledStreamIT.a_stalled_stream_holds_its_bound -- Time elapsed: 0.547 s <<< FAILURE!",
                        "org.opentest4j.AssertionFailedError: ",
                        "[the stalled turn still waits for its client] ",
                        "expected: 1",
                        " but was: 2",
                        "\tat dev.baton.server.it.StalledStreamIT.a_stalled_stream_holds_its_bound(StalledStreamIT.java:56)")
                .contains(
                        "[ERROR]   StalledStreamIT.a_stalled_stream_holds_its_bound:56 [the stalled turn still waits for its client] ")
                .contains("[ERROR] -> [Help 1]");
        String all = String.join("\n", shown);
        assertThat(all)
                .doesNotContain("re-run Maven with the -e switch")
                .doesNotContain("@timestamp")
                .doesNotContain("Tests run: 19,") // per-class lines stay in the log
                .doesNotContain("Scanning for projects");
    }

    @Test
    void an_empty_input_shows_nothing_and_succeeds() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "bash", Path.of("..", "scripts", "test-progress.sh").toString())
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().close();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(p.getInputStream().readAllBytes()).isEmpty();
    }
}
