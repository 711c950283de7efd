package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.TaskAgentScript;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
                .as("the call in its tool's words, the raw arguments beside them")
                .contains("[needs approval] Delete the task 'feed the cat'")
                .contains("Allow: Delete the task 'feed the cat'?")
                .containsPattern("\\n  arguments: delete_task \\{\"taskId\":\"[^\"]+\"")
                .contains("approval_denied");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).hasSize(1);

        Run approved = baton("delete feed the cat\ny\n", "chat", "--url", url, "--token", token);
        assertThat(approved.exitCode()).as(approved.output()).isZero();
        assertThat(approved.output())
                .contains("Allow: Delete the task 'feed the cat'?")
                .contains("I've deleted “feed the cat”.");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
    }

    @Test
    void token_without_a_user_fails_with_usage() throws Exception {
        Run run = baton("", "token");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.output()).contains("--user");
    }

    @Test
    void mcp_server_names_the_domains_it_can_serve_when_asked_for_another() throws Exception {
        Run run = baton("", "mcp-server", "--domain", "payments");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output())
                .contains("baton mcp-server: no domain 'payments' to serve over MCP (domains: tasks, notes, learning)")
                .doesNotContain("Exception");
    }

    private static Map<String, String> at(String token) {
        return Map.of("BATON_PORT", Integer.toString(t.server.port()), "BATON_TOKEN", token);
    }

    private static List<JsonNode> messagesOf(String token, String agent) {
        ApiClient.Response sessions = t.api.get("/v1/sessions?state=active&limit=1&agentId=" + agent, token);
        String session = sessions.body().path("sessions").path(0).path("id").asText();
        List<JsonNode> out = new ArrayList<>();
        t.api.get("/v1/sessions/" + session + "/messages?limit=50", token)
                .body()
                .path("messages")
                .forEach(out::add);
        return out;
    }

    @Test
    void chat_finds_the_server_from_baton_port_and_resuming_shows_the_last_messages() throws Exception {
        String token = TestServer.token("rosa");
        BatonProcess.Run first = BatonProcess.run(dir, at(token), "add a task to feed the cat\n", "chat");
        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.output()).contains("New session");

        BatonProcess.Run second = BatonProcess.run(dir, at(token), "", "chat");

        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(second.output())
                .contains("Resuming session")
                .contains("you> add a task to feed the cat")
                .contains("baton> ");
    }

    @Test
    void chat_finds_the_server_from_baton_url() throws Exception {
        String token = TestServer.token("ursula");
        BatonProcess.Run run = BatonProcess.run(
                dir,
                Map.of("BATON_URL", "http://127.0.0.1:" + t.server.port(), "BATON_TOKEN", token),
                "list my tasks\n",
                "chat");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("[tool] list_tasks");
    }

    @Test
    void slash_commands_start_sessions_switch_agents_and_list_sessions() throws Exception {
        String token = TestServer.token("sam");
        BatonProcess.Run run = BatonProcess.run(
                dir, at(token), "/help\n/new\n/agent\n/agent study\n/sessions\n/agent nobody\n/quit\n", "chat");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("/edit")
                .contains("Agents: tasks, study, learning, learning-platform (now: tasks)")
                .contains("with agent 'study'")
                .contains("No agent 'nobody' for you");
        // the prompt ("you> ") begins the line each command's output goes on
        assertThat(run.output().lines().filter(l -> l.contains("New session"))).hasSize(3);
        assertThat(run.output().lines().filter(l -> l.matches(".*\\s(tasks|study)\\s+active\\s.*")))
                .hasSize(3);
    }

    @Test
    void a_line_ending_in_a_backslash_goes_on_and_a_file_longer_than_a_terminal_line_arrives_whole() throws Exception {
        String token = TestServer.token("lena");
        String longText = "x".repeat(10_000);
        Files.writeString(dir.resolve("long.txt"), longText);

        BatonProcess.Run run = BatonProcess.run(dir, at(token), "first line\\\nsecond line\n/file long.txt\n", "chat");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("(sending 10000 characters)");
        assertThat(messagesOf(token, "tasks"))
                .filteredOn(m -> m.path("role").asText().equals("user"))
                .extracting(m -> m.path("content").asText())
                .containsExactly("first line\nsecond line", longText);
    }

    @Test
    void a_server_that_is_not_there_is_one_line_and_exit_code_4() throws Exception {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = free.getLocalPort();
            free.close();
            BatonProcess.Run run =
                    BatonProcess.run(dir, Map.of("BATON_PORT", Integer.toString(port), "BATON_TOKEN", "x"), "", "chat");
            assertThat(run.exitCode()).isEqualTo(4);
            assertThat(run.output()).contains("cannot reach the Baton server at http://localhost:" + port);
            assertThat(run.hasStackTrace()).isFalse();
        }
    }

    @Test
    void a_token_the_server_refuses_is_one_line_and_exit_code_5() throws Exception {
        BatonProcess.Run run = BatonProcess.run(dir, at("not-a-token"), "", "chat");
        assertThat(run.exitCode()).isEqualTo(5);
        assertThat(run.output()).contains("the server refused the token");
        assertThat(run.hasStackTrace()).isFalse();
    }

    @Test
    void token_with_a_bad_lifetime_or_no_secret_says_what_to_do_without_a_stack_trace() throws Exception {
        BatonProcess.Run ttl = BatonProcess.run(
                dir, Map.of("BATON_JWT_SECRET", TestServer.SECRET), "", "token", "--user", "a", "--ttl", "30");
        assertThat(ttl.exitCode()).isEqualTo(2);
        assertThat(ttl.output()).contains("needs a unit");
        assertThat(ttl.hasStackTrace()).isFalse();

        Path empty = Files.createDirectories(dir.resolve("no-server-here"));
        BatonProcess.Run none = BatonProcess.run(empty, Map.of(), "", "token", "--user", "a");
        assertThat(none.exitCode()).isEqualTo(3);
        assertThat(none.output()).contains("no secret").contains("BATON_JWT_SECRET");
        assertThat(none.hasStackTrace()).isFalse();
    }

    @Test
    void token_signs_with_the_development_secret_a_server_keeps() throws Exception {
        Path home = dir.resolve("dev");
        Files.createDirectories(home.resolve("data"));
        Files.writeString(home.resolve("data").resolve("dev-jwt-secret"), TestServer.SECRET + "\n");

        BatonProcess.Run run = BatonProcess.run(home, Map.of(), "", "token", "--user", "devi");

        assertThat(run.exitCode()).as(run.output()).isZero();
        String token = run.output().trim().lines().reduce((a, b) -> b).orElseThrow();
        // the test server signs with the same secret: it accepts the token
        assertThat(t.api.get("/v1/sessions", token).status()).isEqualTo(200);
    }

    @Test
    void help_lists_the_commands_and_help_of_a_command_shows_its_options() throws Exception {
        BatonProcess.Run all = BatonProcess.run(dir, Map.of(), "", "help");
        assertThat(all.exitCode()).isZero();
        assertThat(all.output()).contains("serve", "chat", "token", "config", "Exit codes");

        BatonProcess.Run chat = BatonProcess.run(dir, Map.of(), "", "help", "chat");
        assertThat(chat.exitCode()).isZero();
        assertThat(chat.output()).contains("--agent", "--new");
    }
}
