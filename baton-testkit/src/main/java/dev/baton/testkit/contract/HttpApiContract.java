package dev.baton.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.SimulatorScript;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.contract.ApiExchanges.Answer;
import dev.baton.testkit.contract.ApiExchanges.Event;
import dev.baton.testkit.contract.ApiExchanges.Streamed;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Baton's HTTP API v1 as a client sees it, whichever door serves it: {@code baton serve} and a Spring Boot app with
 * the starter each run this suite over real HTTP, with the LLM simulator's task agent script as the model and the
 * task agent of baton-tasks (whose {@code delete_task} waits for approval). A subclass starts its door on
 * {@link #batonYaml} and {@link #script()} and says where it listens ({@link #baseUrl()}); each test has users of its
 * own, so the tests share one door.
 */
public abstract class HttpApiContract {
    /** The HS256 secret of both doors' tokens. */
    public static final String SECRET = "contract-secret-contract-secret-0123456789";

    private static final String TENANT = "acme";

    protected ApiExchanges api;

    /** What comes before {@code /v1}: scheme, host, port and any base path. */
    protected abstract String baseUrl();

    /** The baton.yaml both doors run on: the simulator's default model, the roles below, no rate limits. */
    public static String batonYaml(String databaseUrl) {
        return """
                database:
                  url: "%s"
                auth:
                  jwtSecret: "%s"
                models:
                  default: "simulator:default"
                roles:
                  student: [sessions:read:self, sessions:write:self, tasks:read:self, tasks:write:self]
                  reader: [sessions:read:self, tasks:read:self]
                rateLimits:
                  enabled: false
                """.formatted(databaseUrl, SECRET);
    }

    /** The model both doors talk to. */
    public static SimulatorScript script() {
        return TaskAgentScript.create();
    }

    @BeforeEach
    void exchanges() {
        api = new ApiExchanges(baseUrl(), SECRET);
    }

    private String student() {
        return api.token("user-" + UUID.randomUUID(), TENANT, "student");
    }

    private String startSession(String token) {
        Answer created = api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return created.body().path("id").asText();
    }

    private Answer send(String session, String token, String content) {
        return api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                ApiExchanges.JSON.createObjectNode().put("content", content).toString());
    }

    @Test
    void a_session_is_started_read_listed_and_deleted() {
        String token = student();
        Answer created = api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}", "X-Request-ID", "contract-1");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("X-Request-ID")).isEqualTo("contract-1");
        assertThat(created.header("X-Content-Type-Options")).isEqualTo("nosniff");
        JsonNode session = created.body();
        assertThat(session.path("agentId").asText()).isEqualTo("tasks");
        assertThat(session.path("state").asText()).isEqualTo("active");
        assertThat(session.path("messageCount").asInt()).isZero();
        String id = session.path("id").asText();

        Answer read = api.get("/v1/sessions/" + id, token);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body().path("id").asText()).isEqualTo(id);
        assertThat(read.body().path("awaitingApproval").asBoolean(true)).isFalse();
        assertThat(read.body().path("pendingApprovals").isArray()).isTrue();

        String second = startSession(token);
        Answer listed = api.get("/v1/sessions?limit=1", token);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body().path("sessions")).hasSize(1);
        assertThat(listed.body().path("sessions").get(0).path("id").asText()).isEqualTo(second);
        String cursor = listed.body().path("nextCursor").asText();
        assertThat(cursor).isNotBlank();
        Answer next = api.get("/v1/sessions?limit=1&cursor=" + cursor, token);
        assertThat(next.body().path("sessions").get(0).path("id").asText()).isEqualTo(id);

        assertThat(api.delete("/v1/sessions/" + id, token).status()).isEqualTo(204);
        Answer gone = api.get("/v1/sessions/" + id, token);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorCode()).isEqualTo("not_found");
        assertThat(gone.header("X-Content-Type-Options")).isEqualTo("nosniff");
    }

    @Test
    void a_message_answered_as_json_runs_its_tool_and_is_kept_in_the_history() {
        String token = student();
        String session = startSession(token);

        Answer answer = send(session, token, "add water the plants");

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        JsonNode body = answer.body();
        assertThat(body.path("state").asText()).isEqualTo("completed");
        assertThat(body.path("answer").asText()).isNotBlank();
        assertThat(body.path("toolCalls").get(0).path("name").asText()).isEqualTo("add_task");
        assertThat(body.path("toolCalls").get(0).path("state").asText()).isEqualTo("succeeded");
        assertThat(body.path("usage").has("inputTokens")).isTrue();
        JsonNode messages =
                api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
        assertThat(messages).extracting(m -> m.path("role").asText()).containsExactly("user", "assistant");
        assertThat(messages.get(1).path("id").asText())
                .isEqualTo(body.path("messageId").asText());
        assertThat(messages.get(1).path("toolCalls").get(0).path("name").asText())
                .isEqualTo("add_task");
    }

    @Test
    void a_streamed_message_is_taken_up_again_after_its_last_event_id() {
        String token = student();
        String session = startSession(token);

        Streamed streamed =
                api.postStreaming("/v1/sessions/" + session + "/messages", token, "{\"content\":\"add buy milk\"}");

        assertThat(streamed.status()).as(streamed.raw()).isEqualTo(200);
        assertThat(streamed.headers().get("content-type").getFirst()).startsWith("text/event-stream");
        assertThat(streamed.headers().get("x-content-type-options")).containsExactly("nosniff");
        assertThat(streamed.headers().get("x-request-id")).hasSize(1);
        assertThat(streamed.types())
                .startsWith("turn.started", "tool_call", "tool_result")
                .endsWith("done");
        assertThat(streamed.events()).extracting(Event::id).isSorted().doesNotContain(-1L);
        for (Event e : streamed.events())
            assertThat(e.data().path("type").asText()).isEqualTo(e.type());
        assertThat(streamed.first("tool_call").data().path("name").asText()).isEqualTo("add_task");
        assertThat(streamed.events().getLast().data().path("state").asText()).isEqualTo("completed");
        String turnId = streamed.first("turn.started").data().path("turnId").asText();
        assertThat(api.get("/v1/sessions/" + session, token)
                        .body()
                        .path("lastTurnId")
                        .asText())
                .isEqualTo(turnId);

        String events = "/v1/sessions/" + session + "/turns/" + turnId + "/events";
        long firstId = streamed.events().getFirst().id();
        Streamed resumed = api.getStreaming(events, token, "Last-Event-ID", Long.toString(firstId));
        assertThat(resumed.status()).isEqualTo(200);
        assertThat(resumed.headers().get("content-type").getFirst()).startsWith("text/event-stream");
        assertThat(resumed.events())
                .extracting(Event::id)
                .containsExactlyElementsOf(
                        streamed.events().stream().skip(1).map(Event::id).toList());
        assertThat(resumed.types())
                .isEqualTo(streamed.types().subList(1, streamed.types().size()));

        long lastId = streamed.events().getLast().id();
        assertThat(api.getStreaming(events, token, "Last-Event-ID", Long.toString(lastId))
                        .status())
                .as("nothing follows the end: 204 stops a browser's EventSource")
                .isEqualTo(204);
        Answer badId = api.get(events, token, "Last-Event-ID", "not-a-number");
        assertThat(badId.status()).isEqualTo(400);
        assertThat(badId.errorCode()).isEqualTo("invalid_request");
        Answer otherUser = api.get(events, student());
        assertThat(otherUser.status()).isEqualTo(404);
        assertThat(otherUser.errorCode()).isEqualTo("not_found");
    }

    @Test
    void a_destructive_tool_waits_for_approval_and_the_decision_goes_on_with_the_turn() {
        String token = student();
        String session = startSession(token);
        assertThat(send(session, token, "add water the plants").status()).isEqualTo(200);

        Streamed paused = api.postStreaming(
                "/v1/sessions/" + session + "/messages", token, "{\"content\":\"delete water the plants\"}");

        assertThat(paused.types()).contains("approval_required").last().isEqualTo("done");
        JsonNode required = paused.first("approval_required").data();
        assertThat(required.path("name").asText()).isEqualTo("delete_task");
        assertThat(paused.events().getLast().data().path("state").asText()).isEqualTo("awaiting_approval");
        String callId = required.path("callId").asText();
        JsonNode read = api.get("/v1/sessions/" + session, token).body();
        assertThat(read.path("awaitingApproval").asBoolean()).isTrue();
        assertThat(read.path("pendingApprovals").get(0).path("callId").asText()).isEqualTo(callId);

        String decide = "/v1/sessions/" + session + "/approvals/" + callId;
        Answer maybe = api.post(decide, token, "{\"decision\":\"maybe\"}");
        assertThat(maybe.status()).isEqualTo(400);
        assertThat(maybe.errorCode()).isEqualTo("invalid_request");
        assertThat(api.post(decide, student(), "{\"decision\":\"approve\"}").status())
                .as("another user's held call is indistinguishable from none")
                .isEqualTo(404);

        Answer approved = api.post(decide, token, "{\"decision\":\"approve\"}");

        assertThat(approved.status()).as(approved.raw()).isEqualTo(200);
        assertThat(approved.body().path("state").asText()).isEqualTo("completed");
        assertThat(approved.body().path("toolCalls"))
                .extracting(c -> c.path("name").asText())
                .contains("delete_task");
        assertThat(api.get("/v1/sessions/" + session, token)
                        .body()
                        .path("awaitingApproval")
                        .asBoolean(true))
                .isFalse();
        Answer again = api.post(decide, token, "{\"decision\":\"approve\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.errorCode()).isEqualTo("approval_already_decided");
    }

    @Test
    void chat_starts_a_conversation_and_goes_on_in_it_as_json_or_a_stream() {
        String token = student();

        Answer first = api.post("/v1/chat", token, "{\"message\":\"add call mom\",\"agentId\":\"tasks\"}");

        assertThat(first.status()).as(first.raw()).isEqualTo(200);
        String conversation = first.body().path("conversationId").asText();
        assertThat(conversation).isNotBlank();
        assertThat(first.body().path("state").asText()).isEqualTo("completed");
        assertThat(first.body().path("toolCalls").get(0).path("name").asText()).isEqualTo("add_task");

        Streamed second = api.postStreaming(
                "/v1/chat",
                token,
                "{\"message\":\"list my tasks\",\"conversationId\":\"" + conversation + "\",\"stream\":true}");
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.first("turn.started").data().path("sessionId").asText())
                .isEqualTo(conversation);
        assertThat(second.first("tool_call").data().path("name").asText()).isEqualTo("list_tasks");
        assertThat(api.get("/v1/sessions/" + conversation, token)
                        .body()
                        .path("messageCount")
                        .asInt())
                .isEqualTo(4);
    }

    @Test
    void a_completed_session_takes_no_more_messages_and_cancel_says_whether_a_turn_ran() {
        String token = student();
        String session = startSession(token);

        Answer cancelled = api.post("/v1/sessions/" + session + "/cancel", token, "");
        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.body().path("cancelled").asBoolean(true)).isFalse();

        Answer completed = api.post("/v1/sessions/" + session + "/complete", token, "");
        assertThat(completed.status()).isEqualTo(200);
        assertThat(completed.body().path("id").asText()).isEqualTo(session);
        assertThat(completed.body().path("state").asText()).isEqualTo("completed");
        assertThat(completed.body().path("endedAt").asText()).isNotBlank();

        Answer refused = send(session, token, "add one more");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.errorCode()).isEqualTo("session_completed");
        assertThat(api.get("/v1/sessions?state=completed", token).body().path("sessions"))
                .extracting(s -> s.path("id").asText())
                .containsExactly(session);
    }

    @Test
    void the_catalogue_lists_the_agents_and_tools_the_caller_may_use() {
        String token = student();

        JsonNode agents = api.get("/v1/agents", token).body().path("agents");
        JsonNode tasks = List.copyOf(agents.findParents("id")).stream()
                .filter(a -> a.path("id").asText().equals("tasks"))
                .findFirst()
                .orElseThrow();
        assertThat(tasks.path("tools")).extracting(JsonNode::asText).contains("add_task", "delete_task");
        JsonNode tools = api.get("/v1/tools", token).body().path("tools");
        JsonNode delete = List.copyOf(tools.findParents("name")).stream()
                .filter(t -> t.path("name").asText().equals("delete_task"))
                .findFirst()
                .orElseThrow();
        assertThat(delete.path("destructive").asBoolean()).isTrue();
        assertThat(delete.path("parameters").path("type").asText()).isEqualTo("object");
    }

    @Test
    void without_a_token_the_answer_is_401_with_the_error_body() {
        Answer answer = api.get("/v1/sessions", null, "X-Request-ID", "contract-401");

        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(answer.errorCode()).isEqualTo("unauthorized");
        assertThat(answer.body().path("error").path("requestId").asText()).isEqualTo("contract-401");
        assertThat(answer.header("X-Request-ID")).isEqualTo("contract-401");
        assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(api.get("/v1/sessions", "not-a-jwt").status()).isEqualTo(401);
    }

    @Test
    void another_users_session_is_answered_as_one_that_does_not_exist() {
        String owner = student();
        String session = startSession(owner);
        String stranger = student();
        String unknown = UUID.randomUUID().toString();

        for (String path : List.of("/v1/sessions/%s", "/v1/sessions/%s/messages")) {
            Answer theirs = api.get(path.formatted(session), stranger);
            Answer none = api.get(path.formatted(unknown), stranger);
            assertThat(theirs.status()).isEqualTo(404).isEqualTo(none.status());
            assertThat(theirs.errorCode()).isEqualTo("not_found").isEqualTo(none.errorCode());
            assertThat(theirs.body().path("error").path("message"))
                    .isEqualTo(none.body().path("error").path("message"));
        }
        assertThat(send(session, stranger, "add a stranger's task").status()).isEqualTo(404);
        assertThat(api.delete("/v1/sessions/" + session, stranger).status()).isEqualTo(404);
        assertThat(api.get("/v1/sessions/" + session, owner).status())
                .as("still there for its owner")
                .isEqualTo(200);
    }

    @Test
    void malformed_bodies_are_400_and_bad_values_422() {
        String token = student();
        String session = startSession(token);

        assertThat(send(session, token, "").errorCode()).isEqualTo("invalid_content");
        Answer notJson = api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.errorCode()).isEqualTo("invalid_json");
        Answer unknownField = api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hi\",\"x\":1}");
        assertThat(unknownField.status()).isEqualTo(400);
        assertThat(unknownField.errorCode()).isEqualTo("unknown_field");
        Answer wrongType = api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":42}");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.errorCode()).isEqualTo("invalid_request");
        Answer badLimit = api.get("/v1/sessions?limit=0", token);
        assertThat(badLimit.status()).isEqualTo(400);
        Answer badState = api.get("/v1/sessions?state=sleeping", token);
        assertThat(badState.status()).isEqualTo(400);

        String key = "contract-" + UUID.randomUUID();
        Answer first = api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"add a kept task\"}",
                "Idempotency-Key",
                key);
        assertThat(first.status()).isEqualTo(200);
        Answer replayed = api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"add a kept task\"}",
                "Idempotency-Key",
                key);
        assertThat(replayed.status()).isEqualTo(200);
        assertThat(replayed.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replayed.body().path("messageId")).isEqualTo(first.body().path("messageId"));
        Answer reused = api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"add another\"}",
                "Idempotency-Key",
                key);
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.errorCode()).isEqualTo("idempotency_key_reused");
    }

    @Test
    void a_user_without_the_permission_is_403() {
        String reader = api.token("reader-" + UUID.randomUUID(), TENANT, "reader");

        Answer refused = api.post("/v1/sessions", reader, "{\"agentId\":\"tasks\"}");

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.errorCode()).isEqualTo("forbidden");
        assertThat(api.get("/v1/sessions", reader).status()).isEqualTo(200);
    }
}
