package dev.baton.server.it;

import static dev.baton.server.it.McpFixture.q;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.tasks.TaskModule;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Baton on both sides of MCP: the tasks agent of one Baton uses the task tools of {@code baton mcp-server --domain
 * tasks} (the packaged jar, started over stdio with the caller named in {@code _meta}) instead of its own, and the same
 * task conversation gives the same answers as with the tools in process.
 */
class McpDomainServerIT {
    static final List<String> CONVERSATION = List.of(
            "add a task to buy milk",
            "add a task to call mom",
            "list my tasks",
            "complete buy milk",
            "list my tasks",
            "delete call mom",
            "list my tasks");

    @TempDir
    Path dir;

    @Test
    void the_task_conversation_gives_the_same_answers_with_the_task_tools_behind_mcp() throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("local"));
        List<String> inProcess;
        try (TestServer t = TestServer.start(dir.resolve("local"), TaskAgentScript.create(Clock.systemUTC()))) {
            inProcess = converse(t, "alice").answers();
        }

        Path jar = Path.of("target", "baton.jar").toAbsolutePath();
        assertThat(jar).exists();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String domainDb = "jdbc:sqlite:" + dir.resolve("tasks-domain.db");
        String yaml = """
                mcp:
                  servers:
                    tasks:
                      command: %s
                      args: ["--enable-native-access=ALL-UNNAMED", "-jar", %s, "mcp-server", "--domain", "tasks"]
                      env: { BATON_DB_URL: %s }
                      timeout: 20s
                      identity: { meta: true }
                      state: perUser
                      trusted: true
                      permissions: [tasks:read:self]
                      tools:
                        add_task: { permissions: [tasks:write:self] }
                        complete_task: { permissions: [tasks:write:self] }
                        update_task: { permissions: [tasks:write:self] }
                        delete_task: { permissions: [tasks:write:self] }
                """.formatted(q(java), q(jar), q(domainDb));
        String tasksOverMcp = TaskModule.agentYaml().replaceFirst("(?m)^tools: .*$", "tools: [\"mcp:tasks/*\"]");
        Path remote = dir.resolve("remote");
        try (TestServer t = TestServer.start(
                McpFixture.config(remote, yaml, Map.of("tasks", tasksOverMcp), Map.of()),
                LlmSimulator.start(TaskAgentScript.create(Clock.systemUTC(), "tasks__")),
                true,
                Clock.systemUTC())) {
            Conversation overMcp = converse(t, "alice");

            assertThat(overMcp.answers()).isEqualTo(inProcess);
            assertThat(overMcp.answers().getFirst()).isEqualTo("Done — I've added “buy milk” to your tasks.");
            // delete_task is destructive on both sides (over MCP: its destructiveHint), so "delete call mom" waits for
            // the user's approval in both conversations and the task stays
            assertThat(overMcp.answers().getLast())
                    .startsWith("You have 1 open task:")
                    .contains("call mom");
            assertThat(overMcp.tools())
                    .isNotEmpty()
                    .allSatisfy(name -> assertThat(name).startsWith("tasks__"));
            // the tasks live in the MCP server's database, for the user the call named: not in this Baton's own
            String alice = TestServer.token("alice", "student");
            assertThat(t.api.get("/v1/tasks?status=all", alice).body().path("tasks"))
                    .isEmpty();
            assertThat(converse(t, "bob", "list my tasks").answers()).containsExactly("You have no open tasks.");
        }
    }

    record Conversation(List<String> answers, List<String> tools) {}

    private static Conversation converse(TestServer t, String user, String... messages) {
        String token = TestServer.token(user, "student");
        String session = t.api.startSession(token, "tasks");
        List<String> answers = new ArrayList<>();
        List<String> tools = new ArrayList<>();
        for (String message : messages.length == 0 ? CONVERSATION : List.of(messages)) {
            ApiClient.Response r = t.api.post(
                    "/v1/sessions/" + session + "/messages",
                    token,
                    ApiClient.JSON.createObjectNode().put("content", message).toString());
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            answers.add(r.body().path("answer").asText());
            for (JsonNode call : r.body().path("toolCalls"))
                tools.add(call.path("name").asText());
        }
        return new Conversation(answers, tools);
    }
}
