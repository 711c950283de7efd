package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.npm.NpmPackages;
import dev.baton.testkit.time.SettableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAI-compatible door's {@code /v1/models} and {@code /v1/chat/completions} with the official {@code openai}
 * JavaScript client (src/test/resources/openai/chat-client.mjs) against a real server and the simulator. Each test has
 * users of its own: the per-user rate limit is 2 a minute and the test's clock does not move, so the third message of
 * a user is refused.
 */
class OpenAiChatCompletionsIT {
    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-06-02T08:00:00Z"));
    static TestServer t;
    static Path client;

    @BeforeAll
    static void start() {
        Path installed = NpmPackages.require(Path.of("target", "npm-openai"), List.of(NpmPackages.OPENAI));
        client = NpmPackages.copyScript(installed, "/openai/chat-client.mjs");
        t = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("openai.db"), """
                        rateLimits:
                          perUser: { perMinute: 2 }
                        """, Map.of()),
                LlmSimulator.start(TaskAgentScript.create()),
                true,
                clock);
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    @Test
    void the_models_are_the_agents_the_caller_may_use() throws Exception {
        String token = token("oa-models");

        JsonNode run = runClient(token, "models", "{}");

        List<String> ids = new ArrayList<>();
        run.path("models").forEach(m -> {
            assertThat(m.path("object").asText()).isEqualTo("model");
            assertThat(m.path("owned_by").asText()).isEqualTo("baton");
            ids.add(m.path("id").asText());
        });
        List<String> agents = StreamSupport.stream(
                        t.api.get("/v1/agents", token).body().path("agents").spliterator(), false)
                .map(a -> a.path("id").asText())
                .toList();
        assertThat(ids).contains("tasks").containsExactlyInAnyOrderElementsOf(agents);
    }

    @Test
    void a_tool_turn_adds_a_task_on_the_server_and_returns_only_the_answer() throws Exception {
        String token = token("oa-tool");

        JsonNode run = runClient(token, "chat", "{\"message\":\"add a task to buy bread\"}");

        JsonNode completion = run.path("completion");
        assertThat(completion.path("object").asText()).isEqualTo("chat.completion");
        assertThat(completion.path("model").asText()).isEqualTo("tasks");
        JsonNode choice = completion.at("/choices/0");
        assertThat(choice.at("/message/role").asText()).isEqualTo("assistant");
        assertThat(choice.at("/message/content").asText()).startsWith("Done — I've added “buy bread”");
        assertThat(choice.path("message").has("tool_calls"))
                .as("tools ran on the server")
                .isFalse();
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        assertThat(completion.at("/usage/total_tokens").asLong())
                .isEqualTo(completion.at("/usage/prompt_tokens").asLong()
                        + completion.at("/usage/completion_tokens").asLong())
                .isPositive();
        JsonNode tasks = t.api.get("/v1/tasks", token).body().path("tasks");
        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0).path("title").asText()).isEqualTo("buy bread");
        assertThat(t.api.get("/v1/sessions/" + run.path("conversationId").asText(), token)
                        .status())
                .as("the conversation is the caller's Baton session")
                .isEqualTo(200);
    }

    @Test
    void the_whole_history_sent_again_continues_one_session_whose_messages_are_stored_once() throws Exception {
        String token = token("oa-history");

        JsonNode run =
                runClient(token, "two-turns", "{\"first\":\"add a task to buy milk\",\"second\":\"list my tasks\"}");

        String session = run.at("/first/conversationId").asText();
        assertThat(session).isNotBlank();
        assertThat(run.at("/second/conversationId").asText()).isEqualTo(session);
        assertThat(run.at("/second/completion/choices/0/message/content").asText())
                .contains("buy milk");
        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
        assertThat(StreamSupport.stream(messages.spliterator(), false)
                        .map(m -> m.path("role").asText() + ":"
                                + m.path("content").asText())
                        .toList())
                .as("each message once, the client's system message not among them")
                .hasSize(4)
                .first()
                .isEqualTo("user:add a task to buy milk");
        List<String> seenByModel = t.simulator.requests().getLast().messages().stream()
                .map(m -> m.path("content").asText())
                .filter(c -> c.equals("add a task to buy milk"))
                .toList();
        assertThat(seenByModel)
                .as("the second turn's model call saw the first turn, once")
                .hasSize(1);
    }

    @Test
    void a_streamed_answer_arrives_as_chunks_with_a_finish_reason_usage_and_done() throws Exception {
        String token = token("oa-stream");

        JsonNode run =
                runClient(token, "stream", "{\"message\":\"add a task to walk the dog\",\"then\":\"list my tasks\"}");

        List<JsonNode> chunks = new ArrayList<>();
        run.path("chunks").forEach(chunks::add);
        assertThat(chunks).allSatisfy(c -> assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk"));
        assertThat(chunks.getFirst().at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        JsonNode finished = chunks.get(chunks.size() - 2);
        assertThat(finished.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        JsonNode usage = chunks.getLast();
        assertThat(usage.path("choices")).isEmpty();
        assertThat(usage.at("/usage/total_tokens").asLong()).isPositive();
        assertThat(chunks.subList(0, chunks.size() - 1))
                .allSatisfy(c -> assertThat(c.get("usage").isNull()).isTrue());
        assertThat(run.path("text").asText()).startsWith("Done — I've added “walk the dog”");
        assertThat(run.at("/next/conversationId").asText())
                .as("the streamed answer sent back continues the same session")
                .isEqualTo(run.path("conversationId").asText());
        assertThat(run.at("/next/completion/choices/0/message/content").asText())
                .contains("walk the dog");
    }

    @Test
    void a_model_failure_is_an_error_status_or_an_error_event_the_client_raises() throws Exception {
        String token = token("oa-fails");

        t.simulator.enqueueFault(Fault.http500());
        JsonNode json = runClient(token, "chat", "{\"message\":\"list my tasks\"}");
        t.simulator.enqueueFault(Fault.http500());
        JsonNode streamed = runClient(token, "stream-fails", "{\"message\":\"list my tasks\"}");

        assertThat(json.path("status").asInt()).isEqualTo(502);
        assertThat(json.at("/error/type").asText()).isEqualTo("server_error");
        assertThat(json.at("/error/code").asText()).isEqualTo("model_unavailable");
        assertThat(streamed.at("/raised/name").asText()).isEqualTo("APIError");
        assertThat(streamed.at("/raised/error/code").asText()).isEqualTo("model_unavailable");
        assertThat(streamed.path("chunks").size())
                .as("the role chunk came before the failure, no finish_reason after it")
                .isEqualTo(1);
    }

    @Test
    void a_bad_token_is_401_in_openais_error_shape() throws Exception {
        JsonNode run = runClient("not-a-jwt", "chat", "{\"message\":\"hi\"}");

        assertThat(run.path("failed").asBoolean()).isTrue();
        assertThat(run.path("status").asInt()).isEqualTo(401);
        assertThat(run.path("name").asText()).isEqualTo("AuthenticationError");
        assertThat(run.at("/error/type").asText()).isEqualTo("authentication_error");
        assertThat(run.at("/error/code").asText()).isEqualTo("unauthorized");
    }

    @Test
    void the_third_message_in_a_minute_is_429_with_retry_after() throws Exception {
        JsonNode run = runClient(token("oa-limited"), "chats", "{\"count\":3,\"message\":\"list my tasks\"}");

        JsonNode results = run.path("results");
        assertThat(results).hasSize(3);
        assertThat(results.get(0).path("failed").asBoolean()).isFalse();
        assertThat(results.get(1).path("failed").asBoolean()).isFalse();
        JsonNode refused = results.get(2);
        assertThat(refused.path("status").asInt()).isEqualTo(429);
        assertThat(refused.path("name").asText()).isEqualTo("RateLimitError");
        assertThat(refused.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(refused.at("/error/code").asText()).isEqualTo("rate_limited");
        assertThat(refused.path("retryAfter").asLong()).isPositive();
    }

    @Test
    void a_caller_who_may_not_chat_is_403_permission_error() {
        String observer = LimitsFixture.token("oa-observer", null, "observer", Instant.now());

        var r = t.api.post(
                "/v1/chat/completions",
                observer,
                "{\"model\":\"tasks\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(r.status()).isEqualTo(403);
        assertThat(r.body().at("/error/type").asText()).isEqualTo("permission_error");
    }

    static String token(String user) {
        return LimitsFixture.token(user, null, "student", Instant.now());
    }

    /** Runs the openai client's scenario against the door and returns what it printed. */
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
