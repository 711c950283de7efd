package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.simulator.Condition;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.npm.NpmPackages;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Baton's A2A door with the official A2A JS SDK (1.x) as its client, over real HTTP, with the bundled task agent on
 * the simulator: the card, a blocking send that really adds a task, a streamed second message in the same context,
 * the task read back, a cancel, an approval pause answered on its task, and what a caller without a token or
 * someone else's task or context gets.
 */
class A2aDoorIT {
    @TempDir
    static Path dir;

    /** Holds the model's answer to "take your time" until the test ends: a task that stays working. */
    static final CountDownLatch hold = new CountDownLatch(1);

    static TestServer t;
    static Path npm;
    static Path client;

    @BeforeAll
    static void start() {
        npm = NpmPackages.require(Path.of("target", "npm-a2a"), List.of(NpmPackages.A2A_SDK));
        client = NpmPackages.copyScript(npm, "/a2a/client.mjs");
        SimulatorScript.Builder script = SimulatorScript.builder()
                .when(
                        new Condition.UserContains("take your time"),
                        new Reply.Failure(new Fault.HoldAfter(1, hold), new Reply.Text("Thinking about it ...", null)));
        TaskAgentScript.create().rules().forEach(script::rule);
        script.fallback(TaskAgentScript.HELP);
        t = TestServer.start(
                LimitsFixture.config(
                        "jdbc:sqlite:" + dir.resolve("a2a.db"),
                        "rateLimits: { enabled: false }\na2a: { defaultAgent: tasks }\n",
                        Map.of()),
                LlmSimulator.start(script.build()),
                true,
                java.time.Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        hold.countDown();
        if (t != null) t.close();
    }

    static String token(String user) {
        return LimitsFixture.token(user, "acme", "student", Instant.now());
    }

    String baseUrl() {
        return "http://127.0.0.1:" + t.server.port();
    }

    /** Runs a scenario of the SDK client and returns what it printed. */
    JsonNode run(String scenario, ObjectNode input) throws Exception {
        input.put("baseUrl", baseUrl());
        Path err = Files.createTempFile(dir, "node", ".err");
        Process p = new ProcessBuilder(NpmPackages.node(), client.toString(), scenario, input.toString())
                .redirectError(err.toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        return ApiClient.JSON.readTree(out);
    }

    static ObjectNode input() {
        return ApiClient.JSON.createObjectNode();
    }

    @Test
    void the_sdk_client_reads_the_card_sends_streams_and_gets_a_task_that_really_adds_a_task() throws Exception {
        String token = token("ada");
        JsonNode out = run(
                "flow",
                input().put("token", token)
                        .put("first", "add a task to buy oat milk")
                        .put("second", "list my tasks"));
        assertThat(out.has("error")).as(out.toString()).isFalse();

        JsonNode card = out.path("card");
        assertThat(card.path("name").asText()).isNotBlank();
        assertThat(card.at("/supportedInterfaces/0/url").asText()).isEqualTo(baseUrl() + "/v1/a2a/tasks");
        assertThat(card.at("/supportedInterfaces/0/protocolBinding").asText()).isEqualTo("JSONRPC");
        assertThat(card.at("/securitySchemes/bearer/httpAuthSecurityScheme/scheme")
                        .asText())
                .isEqualTo("Bearer");
        List<String> skills = new ArrayList<>();
        card.path("skills").forEach(s -> skills.add(s.path("id").asText()));
        assertThat(skills).contains("tasks", "add_task", "list_tasks", "delete_task");

        JsonNode sent = out.path("sent");
        assertThat(sent.at("/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(sent.at("/artifacts/0/parts/0/text").asText()).contains("oat milk");
        String context = sent.path("contextId").asText();
        // the task is real: the REST API of the same user lists it, in the session the context names
        JsonNode tasks = t.api.get("/v1/tasks", token).body().path("tasks");
        assertThat(tasks.toString()).contains("buy oat milk");
        assertThat(t.api.get("/v1/sessions/" + context, token).status()).isEqualTo(200);

        List<JsonNode> events = new ArrayList<>();
        out.path("events").forEach(events::add);
        assertThat(events.getFirst().has("task")).isTrue();
        assertThat(events.getFirst().at("/task/contextId").asText()).isEqualTo(context);
        assertThat(events.getFirst().at("/task/status/state").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(events)
                .anySatisfy(e -> assertThat(
                                e.at("/artifactUpdate/artifact/parts/0/text").asText())
                        .isNotEmpty());
        assertThat(events.getLast().at("/statusUpdate/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");

        JsonNode got = out.path("got");
        assertThat(got.path("id").asText())
                .isEqualTo(events.getFirst().at("/task/id").asText());
        assertThat(got.path("contextId").asText()).isEqualTo(context);
        assertThat(got.at("/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(got.at("/artifacts/0/parts/0/text").asText()).contains("buy oat milk");
    }

    @Test
    void a_working_task_is_followed_by_a_second_stream_cancelled_and_cannot_be_cancelled_again() throws Exception {
        JsonNode out = run("cancel", input().put("token", token("cal")).put("text", "take your time"));
        assertThat(out.has("error")).as(out.toString()).isFalse();

        JsonNode followed = out.path("resubscribed");
        assertThat(followed.get(0).at("/task/status/state").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(followed.get(0).at("/task/id").asText())
                .isEqualTo(out.at("/canceled/id").asText());
        assertThat(followed.get(followed.size() - 1)
                        .at("/statusUpdate/status/state")
                        .asText())
                .isEqualTo("TASK_STATE_CANCELED");

        assertThat(out.at("/canceled/status/state").asText()).isEqualTo("TASK_STATE_CANCELED");
        JsonNode last = out.path("events").get(out.path("events").size() - 1);
        assertThat(last.at("/statusUpdate/status/state").asText()).isEqualTo("TASK_STATE_CANCELED");
        assertThat(out.at("/cancelAgain/error/code").asInt()).isEqualTo(-32002);
    }

    @Test
    void a_polling_client_gets_the_task_working_at_once_and_the_turn_goes_on_without_the_request() throws Exception {
        JsonNode out = run("polling", input().put("token", token("pol")).put("text", "take your time, please"));
        assertThat(out.has("error")).as(out.toString()).isFalse();

        assertThat(out.at("/started/status/state").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(out.at("/got/id").asText()).isEqualTo(out.at("/started/id").asText());
        assertThat(out.at("/got/status/state").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(out.at("/canceled/status/state").asText()).isEqualTo("TASK_STATE_CANCELED");
    }

    @Test
    void an_approval_pause_is_input_required_and_a_yes_on_the_task_completes_it() throws Exception {
        String token = token("pat");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"water the plants\"}")
                        .status())
                .isEqualTo(201);

        JsonNode out = run(
                "approval",
                input().put("token", token)
                        .put("text", "delete water the plants")
                        .put("answerText", "yes"));
        assertThat(out.has("error")).as(out.toString()).isFalse();

        JsonNode paused = out.path("paused");
        assertThat(paused.at("/status/state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        assertThat(paused.at("/status/message/parts/0/text").asText()).contains("delete_task");
        assertThat(paused.at("/status/message/parts/1/data/pendingApprovals/0/tool")
                        .asText())
                .isEqualTo("delete_task");
        // an answer that is neither yes nor no decides nothing
        assertThat(out.at("/unclear/error/code").asInt()).isEqualTo(-32602);

        JsonNode answered = out.path("answered");
        assertThat(answered.path("id").asText()).isEqualTo(paused.path("id").asText());
        assertThat(answered.at("/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(answered.at("/artifacts/0/parts/0/text").asText()).contains("deleted");
        assertThat(out.at("/got/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks").toString())
                .doesNotContain("water the plants");
    }

    @Test
    void an_answer_sent_as_a_stream_goes_on_with_the_same_task_to_its_end() throws Exception {
        String token = token("str");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"clean the garage\"}")
                        .status())
                .isEqualTo(201);

        JsonNode out = run(
                "approval",
                input().put("token", token)
                        .put("text", "delete clean the garage")
                        .put("answerText", "ok")
                        .put("streamAnswer", true));
        assertThat(out.has("error")).as(out.toString()).isFalse();

        String id = out.at("/paused/id").asText();
        JsonNode events = out.path("events");
        assertThat(events.get(0).at("/task/id").asText()).isEqualTo(id);
        assertThat(events.get(0).at("/task/status/state").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(events.get(events.size() - 1)
                        .at("/statusUpdate/status/state")
                        .asText())
                .isEqualTo("TASK_STATE_COMPLETED");
        assertThat(out.at("/got/artifacts/0/parts/0/text").asText()).contains("deleted");
    }

    @Test
    void a_data_part_denying_the_call_completes_the_task_without_running_it() throws Exception {
        String token = token("den");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"file taxes\"}").status())
                .isEqualTo(201);
        ObjectNode in = input().put("token", token).put("text", "delete file taxes");
        in.putObject("answerData").put("approve", false);

        JsonNode out = run("approval", in);
        assertThat(out.has("error")).as(out.toString()).isFalse();

        assertThat(out.at("/paused/status/state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        assertThat(out.at("/answered/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks").toString())
                .contains("file taxes");
    }

    @Test
    void no_token_is_401_and_someone_elses_task_or_context_is_not_found() throws Exception {
        String owner = token("own");
        JsonNode mine = run("call", input().put("token", owner).put("text", "list my tasks"));
        String task = mine.at("/task/id").asText();
        String context = mine.at("/task/contextId").asText();
        assertThat(mine.at("/task/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");

        JsonNode anonymous = run("call", input().put("text", "list my tasks"));
        assertThat(anonymous.at("/error/message").asText()).contains("401");

        String thief = token("thief");
        JsonNode foreignTask = run("call", input().put("token", thief).put("getTask", task));
        assertThat(foreignTask.at("/error/code").asInt()).isEqualTo(-32001);
        JsonNode foreignCancel = run("call", input().put("token", thief).put("cancelTask", task));
        assertThat(foreignCancel.at("/error/code").asInt()).isEqualTo(-32001);
        JsonNode foreignContext = run(
                "call", input().put("token", thief).put("text", "list my tasks").put("contextId", context));
        assertThat(foreignContext.at("/error/code").asInt()).isEqualTo(-32001);
        // and the owner still reads it
        assertThat(run("call", input().put("token", owner).put("getTask", task))
                        .at("/task/status/state")
                        .asText())
                .isEqualTo("TASK_STATE_COMPLETED");
    }

    /** One JSON-RPC call over plain HTTP. */
    static ApiClient.Response rpc(TestServer server, String token, String method, String params) {
        return server.api.post(
                "/v1/a2a/tasks",
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":" + params + "}");
    }

    static String userMessage(String text, String contextId) {
        return "{\"message\":{\"messageId\":\"" + java.util.UUID.randomUUID() + "\",\"role\":\"ROLE_USER\","
                + (contextId == null ? "" : "\"contextId\":\"" + contextId + "\",")
                + "\"parts\":[{\"text\":\"" + text + "\"}]}}";
    }

    @Test
    void a_new_message_in_the_context_ends_the_paused_task_as_canceled() {
        String token = token("sup");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"walk the dog\"}")
                        .status())
                .isEqualTo(201);
        JsonNode paused = rpc(t, token, "SendMessage", userMessage("delete walk the dog", null))
                .body()
                .at("/result/task");
        assertThat(paused.at("/status/state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        String context = paused.path("contextId").asText();

        JsonNode next = rpc(t, token, "SendMessage", userMessage("list my tasks", context))
                .body()
                .at("/result/task");

        assertThat(next.at("/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(next.path("id").asText()).isNotEqualTo(paused.path("id").asText());
        JsonNode got = rpc(t, token, "GetTask", "{\"id\":\"" + paused.path("id").asText() + "\"}")
                .body()
                .at("/result");
        assertThat(got.at("/status/state").asText()).isEqualTo("TASK_STATE_CANCELED");
        JsonNode cancel = rpc(
                        t, token, "CancelTask", "{\"id\":\"" + paused.path("id").asText() + "\"}")
                .body();
        assertThat(cancel.at("/error/code").asInt()).isEqualTo(-32002);
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks").toString())
                .contains("walk the dog");
    }

    @Test
    void a_caller_over_the_rate_limit_gets_429_with_retry_after_and_a_json_rpc_error(@TempDir Path other) {
        try (TestServer limited = TestServer.start(
                LimitsFixture.config(
                        "jdbc:sqlite:" + other.resolve("limited.db"),
                        "rateLimits: { perUser: { perMinute: 1 } }\n",
                        Map.of()),
                LlmSimulator.start(TaskAgentScript.create()),
                true,
                java.time.Clock.systemUTC())) {
            String token = token("rat");
            assertThat(rpc(limited, token, "SendMessage", userMessage("list my tasks", null))
                            .body()
                            .at("/result/task/status/state")
                            .asText())
                    .isEqualTo("TASK_STATE_COMPLETED");

            ApiClient.Response refused = rpc(limited, token, "SendMessage", userMessage("list my tasks", null));

            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.body().at("/error/code").asInt()).isEqualTo(-32603);
            assertThat(refused.body().at("/error/data/code").asText()).isEqualTo("rate_limited");
            assertThat(refused.body().path("id").asInt()).isEqualTo(7);
        }
    }

    @Test
    void a_task_is_found_only_at_the_endpoint_of_its_own_agent() {
        String token = token("two");
        String other = null;
        for (JsonNode agent : t.api.get("/v1/agents", token).body().path("agents")) {
            String id = agent.path("id").asText();
            if (!id.equals("tasks")
                    && t.api.get("/a2a/" + id + "/.well-known/agent-card.json", null)
                                    .status()
                            == 200) other = id;
        }
        assertThat(other).as("a second agent with a card").isNotNull();
        String task = rpc(t, token, "SendMessage", userMessage("list my tasks", null))
                .body()
                .at("/result/task/id")
                .asText();

        ApiClient.Response elsewhere = t.api.post(
                "/v1/a2a/" + other,
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"GetTask\",\"params\":{\"id\":\"" + task + "\"}}");

        assertThat(elsewhere.body().at("/error/code").asInt()).isEqualTo(-32001);
        assertThat(rpc(t, token, "GetTask", "{\"id\":\"" + task + "\"}")
                        .body()
                        .at("/result/id")
                        .asText())
                .isEqualTo(task);
    }

    @Test
    void cards_are_public_and_only_for_exposed_agents() {
        ApiClient.Response card = t.api.get("/a2a/tasks/.well-known/agent-card.json", null);
        assertThat(card.status()).isEqualTo(200);
        assertThat(card.body().path("skills").toString()).contains("add_task");
        assertThat(t.api.get("/.well-known/agent-card.json", null)
                        .body()
                        .at("/supportedInterfaces/0/url")
                        .asText())
                .endsWith("/v1/a2a/tasks");
        assertThat(t.api.get("/a2a/nobody/.well-known/agent-card.json", null).status())
                .isEqualTo(404);
        assertThat(t.api.post("/v1/a2a/nobody", token("ada"), "{}").status()).isEqualTo(404);
    }

    @Test
    void malformed_json_rpc_gets_json_rpc_errors() {
        String token = token("bad");
        ApiClient.Response tooLarge = t.api.post(
                "/v1/a2a/tasks",
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"pad\":\""
                        + "x".repeat(dev.baton.app.config.BatonConfig.DEFAULT_MAX_BODY_BYTES) + "\"}");
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.body().at("/error/code").asText()).isEqualTo("payload_too_large");
        ApiClient.Response notJson = t.api.post("/v1/a2a/tasks", token, "{");
        assertThat(notJson.body().at("/error/code").asInt()).isEqualTo(-32700);
        ApiClient.Response noMethod = t.api.post("/v1/a2a/tasks", token, "{\"jsonrpc\":\"2.0\",\"id\":1}");
        assertThat(noMethod.body().at("/error/code").asInt()).isEqualTo(-32600);
        ApiClient.Response unknown =
                t.api.post("/v1/a2a/tasks", token, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"Nope\",\"params\":{}}");
        assertThat(unknown.body().at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(unknown.body().path("id").asInt()).isEqualTo(2);
        ApiClient.Response noMessage = t.api.post(
                "/v1/a2a/tasks", token, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"SendMessage\",\"params\":{}}");
        assertThat(noMessage.body().at("/error/code").asInt()).isEqualTo(-32602);
        ApiClient.Response unknownTask = t.api.post(
                "/v1/a2a/tasks",
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"GetTask\",\"params\":{\"id\":\"no-such-task\"}}");
        assertThat(unknownTask.body().at("/error/code").asInt()).isEqualTo(-32001);
        ApiClient.Response oldVersion = t.api.post(
                "/v1/a2a/tasks",
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}".getBytes(),
                Map.of("A2A-Version", "0.3"));
        assertThat(oldVersion.body().at("/error/code").asInt()).isEqualTo(-32009);
        ApiClient.Response push = t.api.post(
                "/v1/a2a/tasks",
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"CreateTaskPushNotificationConfig\",\"params\":{}}");
        assertThat(push.body().at("/error/code").asInt()).isEqualTo(-32003);
    }
}
