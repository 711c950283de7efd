package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.time.SettableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Human approval over HTTP on one instance (SQLite), with the bundled task agent: {@code delete_task} is destructive,
 * so the turn stops before it runs until {@code POST /v1/sessions/{id}/approvals/{callId}} decides. The server's
 * clock is the test's, so expiry is a moved clock, not a wait.
 */
class ApprovalsIT {
    static final Instant START = Instant.parse("2026-05-04T09:00:00Z");

    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(START);
    static LlmSimulator simulator;
    static TestServer t;

    @BeforeAll
    static void start() {
        simulator = LlmSimulator.start(TaskAgentScript.create());
        t = TestServer.start(
                LimitsFixture.config(
                        "jdbc:sqlite:" + dir.resolve("approvals.db"),
                        "rateLimits: { enabled: false }\nlifecycle: { sweepInterval: 0s }\n",
                        Map.of()),
                simulator,
                true,
                clock);
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    static String token(String user) {
        return LimitsFixture.token(user, "acme", "student", Instant.now());
    }

    /** A session of {@code user} with one task titled {@code title}; returns {session, taskId}. */
    static String[] sessionWithTask(String user, String title) {
        String token = token(user);
        ApiClient.Response task = t.api.post("/v1/tasks", token, "{\"title\":\"" + title + "\"}");
        assertThat(task.status()).as(task.raw()).isEqualTo(201);
        return new String[] {
            t.api.startSession(token, "tasks"),
            task.body().path("task").path("id").asText()
        };
    }

    static List<SseEvent> stream(String path, String token, String json) {
        try (ApiClient.SseStream s = t.api.openStream(path, token, json)) {
            assertThat(s.status).isEqualTo(200);
            return s.all();
        }
    }

    static List<SseEvent> sendStreaming(String session, String token, String content) {
        return stream(
                "/v1/sessions/" + session + "/messages",
                token,
                ApiClient.JSON.createObjectNode().put("content", content).toString());
    }

    static ApiClient.Response decide(String session, String callId, String token, String json) {
        return t.api.post("/v1/sessions/" + session + "/approvals/" + callId, token, json);
    }

    static List<String> types(List<SseEvent> events) {
        return events.stream().map(SseEvent::event).toList();
    }

    static JsonNode tasks(String token) {
        return t.api.get("/v1/tasks", token).body().path("tasks");
    }

    @Test
    void a_delete_waits_for_approval_and_the_approved_turn_goes_on_over_sse() {
        String token = token("ada");
        String[] s = sessionWithTask("ada", "water the plants");

        List<SseEvent> paused = sendStreaming(s[0], token, "delete water the plants");

        assertThat(types(paused))
                .containsExactly("turn.started", "tool_call", "tool_result", "approval_required", "done");
        JsonNode required = paused.get(3).data();
        assertThat(required.path("name").asText()).isEqualTo("delete_task");
        assertThat(required.path("arguments").path("taskId").asText()).isEqualTo(s[1]);
        assertThat(required.path("reason").asText()).contains("delete_task");
        assertThat(Instant.parse(required.path("expiresAt").asText())).isEqualTo(START.plus(Duration.ofHours(24)));
        JsonNode done = paused.getLast().data();
        assertThat(done.path("state").asText()).isEqualTo("awaiting_approval");
        assertThat(done.path("pendingApprovals").get(0).path("callId").asText())
                .isEqualTo(required.path("callId").asText());
        assertThat(tasks(token)).hasSize(1);
        JsonNode session = t.api.get("/v1/sessions/" + s[0], token).body();
        assertThat(session.path("awaitingApproval").asBoolean()).isTrue();
        assertThat(session.path("pendingApprovals").get(0).path("callId").asText())
                .isEqualTo(required.path("callId").asText());

        List<SseEvent> resumed = stream(
                "/v1/sessions/" + s[0] + "/approvals/" + required.path("callId").asText(),
                token,
                "{\"decision\":\"approve\"}");

        assertThat(types(resumed))
                .startsWith("turn.started", "tool_call", "tool_result")
                .endsWith("done");
        assertThat(resumed.getFirst().data().path("turnId").asText())
                .isEqualTo(paused.getFirst().data().path("turnId").asText());
        assertThat(resumed.get(2).data().path("ok").asBoolean()).isTrue();
        assertThat(resumed.getLast().data().path("state").asText()).isEqualTo("completed");
        assertThat(tasks(token)).isEmpty();
        assertThat(t.api.get("/v1/sessions/" + s[0], token)
                        .body()
                        .path("awaitingApproval")
                        .asBoolean())
                .isFalse();
        JsonNode messages =
                t.api.get("/v1/sessions/" + s[0] + "/messages", token).body().path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(1).path("content").asText()).isEqualTo("I've deleted “water the plants”.");
        assertThat(messages.get(1).path("toolCalls"))
                .extracting(c -> c.path("name").asText() + ":" + c.path("state").asText())
                .containsExactly("list_tasks:succeeded", "delete_task:succeeded");

        ApiClient.Response audit = t.api.get(
                "/v1/admin/sessions/" + s[0] + "/audit", LimitsFixture.token("boss", "acme", "admin", Instant.now()));
        assertThat(audit.status()).isEqualTo(200);
        JsonNode record = audit.body().path("approvals").get(0);
        assertThat(record.path("status").asText()).isEqualTo("approved");
        assertThat(record.path("decidedBy").asText()).isEqualTo("ada");
        assertThat(record.path("decidedAt").asText()).isEqualTo(START.toString());
        assertThat(record.path("name").asText()).isEqualTo("delete_task");

        ApiClient.Response again = decide(s[0], required.path("callId").asText(), token, "{\"decision\":\"approve\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().path("error").path("code").asText()).isEqualTo("approval_already_decided");
    }

    @Test
    void a_held_delete_says_what_it_deletes_in_the_event_the_pause_and_the_sessions_pending_approvals() {
        String token = token("sam");
        ApiClient.Response task = t.api.post("/v1/tasks", token, "{\"title\":\"buy milk\",\"dueDate\":\"2026-05-05\"}");
        assertThat(task.status()).as(task.raw()).isEqualTo(201);
        String session = t.api.startSession(token, "tasks");
        String summary = "Delete the task 'buy milk' (due 2026-05-05)";

        List<SseEvent> paused = sendStreaming(session, token, "delete buy milk");

        assertThat(types(paused)).contains("approval_required").last().isEqualTo("done");
        JsonNode required = paused.stream()
                .filter(e -> e.event().equals("approval_required"))
                .findFirst()
                .orElseThrow()
                .data();
        assertThat(required.path("summary").asText()).isEqualTo(summary);
        assertThat(required.path("arguments").path("taskId").asText())
                .as("the raw arguments are still there")
                .isEqualTo(task.body().path("task").path("id").asText());
        assertThat(paused.getLast()
                        .data()
                        .path("pendingApprovals")
                        .get(0)
                        .path("summary")
                        .asText())
                .isEqualTo(summary);
        JsonNode pending = t.api.get("/v1/sessions/" + session, token).body().path("pendingApprovals");
        assertThat(pending).hasSize(1);
        assertThat(pending.get(0).path("summary").asText())
                .as("read back from the store, as it was when the call was held")
                .isEqualTo(summary);
        assertThat(pending.get(0).path("callId").asText())
                .isEqualTo(required.path("callId").asText());
    }

    @Test
    void a_paused_turns_json_answer_carries_the_summary_too_and_a_task_without_a_due_date_says_none() {
        String[] s = sessionWithTask("ned", "walk the dog");
        String token = token("ned");

        ApiClient.Response paused =
                t.api.post("/v1/sessions/" + s[0] + "/messages", token, "{\"content\":\"delete walk the dog\"}");

        assertThat(paused.status()).as(paused.raw()).isEqualTo(200);
        assertThat(paused.body().path("state").asText()).isEqualTo("awaiting_approval");
        JsonNode held = paused.body().path("pendingApprovals").get(0);
        assertThat(held.path("summary").asText()).isEqualTo("Delete the task 'walk the dog'");
        assertThat(held.path("arguments").path("taskId").asText()).isEqualTo(s[1]);
    }

    @Test
    void a_paused_turn_answers_json_too_and_a_denial_reaches_the_model_which_explains() {
        String token = token("bea");
        String[] s = sessionWithTask("bea", "call mom");

        ApiClient.Response paused =
                t.api.post("/v1/sessions/" + s[0] + "/messages", token, "{\"content\":\"delete call mom\"}");

        assertThat(paused.status()).isEqualTo(200);
        assertThat(paused.body().path("state").asText()).isEqualTo("awaiting_approval");
        assertThat(paused.body().path("messageId").isNull()).isTrue();
        assertThat(paused.body().path("toolCalls").get(0).path("name").asText()).isEqualTo("list_tasks");
        String callId =
                paused.body().path("pendingApprovals").get(0).path("callId").asText();

        ApiClient.Response denied = decide(s[0], callId, token, "{\"decision\":\"deny\",\"comment\":\"keep it\"}");

        assertThat(denied.status()).as(denied.raw()).isEqualTo(200);
        assertThat(denied.body().path("state").asText()).isEqualTo("completed");
        assertThat(denied.body().path("answer").asText())
                .startsWith("Sorry, I couldn't do that: The user did not approve this call")
                .contains("keep it");
        assertThat(tasks(token)).hasSize(1);
        assertThat(denied.body().path("toolCalls"))
                .extracting(c -> c.path("name").asText() + ":" + c.path("state").asText())
                .containsExactly("list_tasks:succeeded", "delete_task:denied");
    }

    @Test
    void edited_arguments_are_checked_and_the_call_runs_with_them() {
        String token = token("cy");
        String[] s = sessionWithTask("cy", "old report");
        String other = t.api.post("/v1/tasks", token, "{\"title\":\"draft\"}")
                .body()
                .path("task")
                .path("id")
                .asText();
        String callId = t.api.post("/v1/sessions/" + s[0] + "/messages", token, "{\"content\":\"delete old report\"}")
                .body()
                .path("pendingApprovals")
                .get(0)
                .path("callId")
                .asText();

        ApiClient.Response invalid = decide(
                s[0], callId, token, "{\"decision\":\"approve\",\"arguments\":{\"taskId\":5,\"confirmation\":true}}");
        assertThat(invalid.status()).isEqualTo(422);
        assertThat(invalid.body().path("error").path("code").asText()).isEqualTo("invalid_arguments");
        assertThat(t.api.get("/v1/sessions/" + s[0], token)
                        .body()
                        .path("awaitingApproval")
                        .asBoolean())
                .isTrue();

        ApiClient.Response edited = decide(
                s[0],
                callId,
                token,
                "{\"decision\":\"approve\",\"arguments\":{\"taskId\":\"" + other + "\",\"confirmation\":true}}");

        assertThat(edited.status()).as(edited.raw()).isEqualTo(200);
        assertThat(tasks(token)).extracting(x -> x.path("title").asText()).containsExactly("old report");
        JsonNode deleteCall = edited.body().path("toolCalls").get(1);
        assertThat(deleteCall.path("arguments").path("taskId").asText()).isEqualTo(other);
    }

    @Test
    void another_users_call_is_404_and_a_session_waiting_on_nothing_is_409() {
        String token = token("dee");
        String[] s = sessionWithTask("dee", "taxes");
        String callId = t.api.post("/v1/sessions/" + s[0] + "/messages", token, "{\"content\":\"delete taxes\"}")
                .body()
                .path("pendingApprovals")
                .get(0)
                .path("callId")
                .asText();
        String eve = token("eve");
        String evesSession = t.api.startSession(eve, "tasks");

        ApiClient.Response foreign = decide(s[0], callId, eve, "{\"decision\":\"approve\"}");
        ApiClient.Response nothing = decide(evesSession, callId, eve, "{\"decision\":\"approve\"}");
        ApiClient.Response badDecision = decide(s[0], callId, token, "{\"decision\":\"maybe\"}");

        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.body().path("error").path("code").asText()).isEqualTo("not_found");
        assertThat(nothing.status()).isEqualTo(409);
        assertThat(nothing.body().path("error").path("code").asText()).isEqualTo("no_pending_approval");
        assertThat(badDecision.status()).isEqualTo(400);
        assertThat(tasks(token)).hasSize(1);
    }

    @Test
    void a_new_message_denies_the_waiting_call() {
        String token = token("fin");
        String[] s = sessionWithTask("fin", "gym");
        String callId = t.api.post("/v1/sessions/" + s[0] + "/messages", token, "{\"content\":\"delete gym\"}")
                .body()
                .path("pendingApprovals")
                .get(0)
                .path("callId")
                .asText();

        ApiClient.Response next =
                t.api.post("/v1/sessions/" + s[0] + "/messages", token, "{\"content\":\"list my tasks\"}");

        assertThat(next.status()).isEqualTo(200);
        assertThat(next.body().path("state").asText()).isEqualTo("completed");
        assertThat(tasks(token)).hasSize(1);
        ApiClient.Response late = decide(s[0], callId, token, "{\"decision\":\"approve\"}");
        assertThat(late.status()).isEqualTo(409);
        assertThat(late.body().path("error").path("code").asText()).isEqualTo("approval_superseded");
        JsonNode messages =
                t.api.get("/v1/sessions/" + s[0] + "/messages", token).body().path("messages");
        assertThat(messages)
                .extracting(
                        m -> m.path("role").asText() + ":" + m.path("status").asText())
                .containsExactly("user:complete", "assistant:cancelled", "user:complete", "assistant:complete");
        assertThat(messages.get(1).path("toolCalls"))
                .extracting(c -> c.path("name").asText() + ":" + c.path("state").asText())
                .containsExactly("list_tasks:succeeded", "delete_task:denied");
    }

    @Test
    void an_undecided_call_expires_when_the_clock_passes_its_expiry() {
        String token = token("gil");
        String[] s = sessionWithTask("gil", "laundry");
        Instant pausedAt = clock.instant();
        String callId = t.api.post("/v1/sessions/" + s[0] + "/messages", token, "{\"content\":\"delete laundry\"}")
                .body()
                .path("pendingApprovals")
                .get(0)
                .path("callId")
                .asText();

        clock.set(pausedAt.plus(Duration.ofHours(24)).plusSeconds(1));
        try {
            assertThat(t.server.runtime().approvals().expire()).isGreaterThanOrEqualTo(1);

            ApiClient.Response late = decide(s[0], callId, token, "{\"decision\":\"approve\"}");
            assertThat(late.status()).isEqualTo(409);
            assertThat(late.body().path("error").path("code").asText()).isEqualTo("approval_expired");
            assertThat(tasks(token)).hasSize(1);
            JsonNode session = t.api.get("/v1/sessions/" + s[0], token).body();
            assertThat(session.path("awaitingApproval").asBoolean()).isFalse();
            JsonNode audit = t.api.get(
                            "/v1/admin/sessions/" + s[0] + "/audit",
                            LimitsFixture.token("boss", "acme", "admin", Instant.now()))
                    .body();
            assertThat(audit.path("approvals").get(0).path("status").asText()).isEqualTo("expired");
        } finally {
            clock.set(START);
        }
    }
}
