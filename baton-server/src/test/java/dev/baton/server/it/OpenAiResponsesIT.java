package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.npm.NpmPackages;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAI-compatible door's Responses API with the official {@code openai} JavaScript client
 * (src/test/resources/openai/responses-client.mjs): a conversation continued by {@code previous_response_id}, a
 * streamed response, a response read back, and a tool call approved through {@code mcp_approval_request} /
 * {@code mcp_approval_response} items.
 */
class OpenAiResponsesIT {
    @TempDir
    static Path dir;

    static TestServer t;
    static Path client;

    @BeforeAll
    static void start() {
        Path installed = NpmPackages.require(Path.of("target", "npm-openai"), List.of(NpmPackages.OPENAI));
        client = NpmPackages.copyScript(installed, "/openai/responses-client.mjs");
        t = TestServer.start(
                LimitsFixture.config(
                        "jdbc:sqlite:" + dir.resolve("responses.db"), "rateLimits: { enabled: false }\n", Map.of()),
                LlmSimulator.start(TaskAgentScript.create()),
                true,
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    @Test
    void a_second_response_continues_the_first_in_one_session_and_each_can_be_read_back() throws Exception {
        String token = token("or-two");

        JsonNode run =
                runClient(token, "two-turns", "{\"first\":\"add a task to buy milk\",\"second\":\"list my tasks\"}");

        assertThat(run.at("/first/object").asText()).isEqualTo("response");
        assertThat(run.at("/first/id").asText()).startsWith("resp_");
        assertThat(run.path("firstText").asText()).startsWith("Done — I've added “buy milk”");
        assertThat(run.path("secondText").asText()).contains("buy milk");
        assertThat(run.at("/second/previous_response_id").asText())
                .isEqualTo(run.at("/first/id").asText());
        String session = run.at("/first/conversation/id").asText();
        assertThat(run.at("/second/conversation/id").asText()).isEqualTo(session);
        assertThat(run.at("/second/usage/total_tokens").asLong()).isPositive();
        assertThat(run.path("retrievedText").asText())
                .isEqualTo(run.path("firstText").asText());
        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
        assertThat(messages).as("one session, each message stored once").hasSize(4);

        JsonNode foreign = runClient(
                token("or-other"),
                "retrieve",
                "{\"id\":\"" + run.at("/first/id").asText() + "\"}");
        assertThat(foreign.path("status").asInt()).as("another user's response").isEqualTo(404);
        assertThat(foreign.at("/error/type").asText()).isEqualTo("not_found_error");
    }

    @Test
    void a_streamed_response_has_the_responses_event_types_in_order() throws Exception {
        JsonNode run = runClient(token("or-stream"), "stream", "{\"message\":\"add a task to feed the cat\"}");

        List<String> types = new ArrayList<>();
        run.path("events").forEach(e -> types.add(e.path("type").asText()));
        assertThat(types.getFirst()).isEqualTo("response.created");
        assertThat(types)
                .contains(
                        "response.in_progress",
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.output_text.delta",
                        "response.output_text.done",
                        "response.output_item.done");
        assertThat(types.getLast()).isEqualTo("response.completed");
        String deltas = StreamSupport.stream(run.path("events").spliterator(), false)
                .filter(e -> e.path("type").asText().equals("response.output_text.delta"))
                .map(e -> e.path("delta").asText())
                .reduce("", String::concat);
        assertThat(deltas).startsWith("Done — I've added “feed the cat”");
        JsonNode completed = run.path("events").get(types.size() - 1).path("response");
        assertThat(completed.path("status").asText()).isEqualTo("completed");
        assertThat(completed.at("/output/0/content/0/text").asText()).isEqualTo(deltas);
        List<Long> sequence = new ArrayList<>();
        run.path("events").forEach(e -> sequence.add(e.path("sequence_number").asLong()));
        assertThat(sequence).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void a_call_waiting_for_approval_is_an_mcp_approval_request_that_an_approval_response_lets_run() throws Exception {
        String token = token("or-approve");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"water the plants\"}")
                        .status())
                .isEqualTo(201);

        JsonNode run = runClient(token, "approval", "{\"message\":\"delete water the plants\",\"approve\":true}");

        JsonNode request = run.path("request");
        assertThat(request.path("type").asText()).isEqualTo("mcp_approval_request");
        assertThat(request.path("name").asText()).isEqualTo("delete_task");
        assertThat(request.path("server_label").asText()).isEqualTo("baton");
        assertThat(request.path("arguments").asText()).contains("taskId");
        assertThat(run.at("/pausedRead/output/0/id").asText())
                .as("the paused response read back lists the waiting call")
                .isEqualTo(request.path("id").asText());
        assertThat(run.path("answeredText").asText()).isEqualTo("I've deleted “water the plants”.");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
    }

    @Test
    void the_approval_round_trip_works_streamed_too() throws Exception {
        String token = token("or-stream-approve");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"pay rent\"}").status())
                .isEqualTo(201);

        JsonNode run = runClient(token, "stream-approval", "{\"message\":\"delete pay rent\"}");

        assertThat(run.at("/request/name").asText()).isEqualTo("delete_task");
        JsonNode asked = run.path("asked");
        assertThat(asked.get(asked.size() - 1).path("type").asText()).isEqualTo("response.completed");
        assertThat(asked.get(asked.size() - 1).at("/response/output/0/type").asText())
                .isEqualTo("mcp_approval_request");
        assertThat(run.at("/completed/type").asText()).isEqualTo("response.completed");
        assertThat(run.at("/completed/response/output/0/content/0/text").asText())
                .isEqualTo("I've deleted “pay rent”.");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
    }

    @Test
    void a_denied_call_does_not_run() throws Exception {
        String token = token("or-deny");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"call mom\"}").status())
                .isEqualTo(201);

        JsonNode run = runClient(token, "approval", "{\"message\":\"delete call mom\",\"approve\":false}");

        assertThat(run.at("/request/name").asText()).isEqualTo("delete_task");
        assertThat(run.at("/answered/status").asText()).isEqualTo("completed");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).hasSize(1);
    }

    @Test
    void a_conversation_names_the_session_to_continue_for_its_owner_only() {
        String token = token("or-conv");
        var first = t.api.post("/v1/responses", token, "{\"model\":\"tasks\",\"input\":\"add a task to buy eggs\"}");
        assertThat(first.status()).isEqualTo(200);
        String session = first.body().at("/conversation/id").asText();

        var second = t.api.post(
                "/v1/responses", token, "{\"conversation\":{\"id\":\"" + session + "\"},\"input\":\"list my tasks\"}");
        var foreign = t.api.post(
                "/v1/responses",
                token("or-conv-other"),
                "{\"conversation\":\"" + session + "\",\"input\":\"list my tasks\"}");

        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body().at("/conversation/id").asText()).isEqualTo(session);
        assertThat(second.body().at("/output/0/content/0/text").asText()).contains("buy eggs");
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.body().at("/error/type").asText()).isEqualTo("not_found_error");
    }

    @Test
    void a_chat_completion_that_needs_approval_says_where_to_decide_and_the_decision_runs_the_call() {
        String token = token("or-chat-approve");
        assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"mow the lawn\"}")
                        .status())
                .isEqualTo(201);

        var paused = t.api.post(
                "/v1/chat/completions",
                token,
                "{\"model\":\"tasks\",\"messages\":[{\"role\":\"user\",\"content\":\"delete mow the lawn\"}]}");

        assertThat(paused.status()).isEqualTo(200);
        String notice = paused.body().at("/choices/0/message/content").asText();
        assertThat(notice).contains("'delete_task' and needs your approval");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks"))
                .as("not deleted yet")
                .hasSize(1);
        Matcher where =
                Pattern.compile("POST (/v1/sessions/[^/ ]+/approvals/[^ ]+)").matcher(notice);
        assertThat(where.find()).isTrue();
        var decided = t.api.post(where.group(1), token, "{\"decision\":\"approve\"}");
        assertThat(decided.status()).as(decided.raw()).isEqualTo(200);
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
    }

    @Test
    void responses_refuse_client_tools_an_unknown_previous_response_and_a_missing_model() {
        String token = token("or-bad");
        var tools = t.api.post(
                "/v1/responses",
                token,
                "{\"model\":\"tasks\",\"input\":\"hi\",\"tools\":[{\"type\":\"function\",\"name\":\"f\"}]}");
        assertThat(tools.status()).isEqualTo(400);
        assertThat(tools.body().at("/error/param").asText()).isEqualTo("tools");
        var noModel = t.api.post("/v1/responses", token, "{\"input\":\"hi\"}");
        assertThat(noModel.status()).isEqualTo(400);
        assertThat(noModel.body().at("/error/param").asText()).isEqualTo("model");
        var unknown = t.api.post("/v1/responses", token, "{\"previous_response_id\":\"resp_nope\",\"input\":\"hi\"}");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().at("/error/param").asText()).isEqualTo("previous_response_id");
        var noInput = t.api.post("/v1/responses", token, "{\"model\":\"tasks\"}");
        assertThat(noInput.status()).isEqualTo(400);
        assertThat(noInput.body().at("/error/param").asText()).isEqualTo("input");
        var approvalWithoutPrevious = t.api.post(
                "/v1/responses",
                token,
                "{\"model\":\"tasks\",\"input\":[{\"type\":\"mcp_approval_response\","
                        + "\"approval_request_id\":\"x\",\"approve\":true}]}");
        assertThat(approvalWithoutPrevious.status()).isEqualTo(400);
        assertThat(approvalWithoutPrevious.body().at("/error/param").asText()).isEqualTo("previous_response_id");
    }

    static String token(String user) {
        return LimitsFixture.token(user, null, "student", Instant.now());
    }

    private static JsonNode runClient(String token, String scenario, String argument) throws Exception {
        String base = "http://127.0.0.1:" + t.server.port() + "/v1";
        Process p = new ProcessBuilder(NpmPackages.node(), client.toString(), base, token, scenario, argument).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return ApiClient.JSON.readTree(out.lines().reduce((a, b) -> b).orElseThrow());
    }
}
