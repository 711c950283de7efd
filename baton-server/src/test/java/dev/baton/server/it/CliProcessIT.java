package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.TaskAgentScript;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton token} and {@code baton chat} as processes, against a running server. */
class CliProcessIT {

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(dir, TaskAgentScript.create());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    record Run(int exitCode, String output) {}

    static Run baton(String stdin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-jar",
                Path.of("target", "baton.jar").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("BATON_JWT_SECRET", TestServer.SECRET);
        pb.environment().remove("BATON_TOKEN");
        Process p = pb.start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    @Test
    void token_mints_a_token_the_server_accepts_for_that_user() throws Exception {
        Run run = baton("", "token", "--user", "tina", "--role", "student", "--name", "Tina");
        assertThat(run.exitCode()).isZero();
        String token = run.output().trim().lines().reduce((a, b) -> b).orElseThrow();
        String session = t.api.startSession(token, "tasks");
        assertThat(t.api.get("/v1/sessions/" + session, token).status()).isEqualTo(200);
        // it is tina's: another user's token cannot see it
        assertThat(t.api.get("/v1/sessions/" + session, TestServer.token("not-tina"))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void chat_streams_the_answer_and_shows_tool_calls() throws Exception {
        String token = TestServer.token("charlie");
        Run run = baton(
                "add a task to water the plants\nlist my tasks\n",
                "chat",
                "--url",
                "http://127.0.0.1:" + t.server.port(),
                "--token",
                token);
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("[tool] add_task")
                .contains("[tool] list_tasks")
                .contains("water the plants");
        assertThat(t.api.get("/v1/tasks", token)
                        .body()
                        .path("tasks")
                        .get(0)
                        .path("title")
                        .asText())
                .isEqualTo("water the plants");
    }

    @Test
    void chat_asks_before_a_destructive_tool_runs_and_sends_the_answer() throws Exception {
        String token = TestServer.token("dora");
        String url = "http://127.0.0.1:" + t.server.port();

        Run denied =
                baton("add a task to feed the cat\ndelete feed the cat\nn\n", "chat", "--url", url, "--token", token);
        assertThat(denied.exitCode()).as(denied.output()).isZero();
        assertThat(denied.output())
                .contains("[needs approval] delete_task")
                .contains("Allow delete_task")
                .contains("approval_denied");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).hasSize(1);

        Run approved = baton("delete feed the cat\ny\n", "chat", "--url", url, "--token", token);
        assertThat(approved.exitCode()).as(approved.output()).isZero();
        assertThat(approved.output()).contains("Allow delete_task").contains("I've deleted “feed the cat”.");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
    }

    @Test
    void token_without_a_user_fails_with_usage() throws Exception {
        Run run = baton("", "token");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.output()).contains("--user");
    }
}
