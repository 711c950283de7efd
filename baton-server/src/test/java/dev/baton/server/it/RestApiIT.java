package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plain REST endpoints: tasks CRUD, catalogue, one-shot chat, idempotent sends, session lifecycle. */
class RestApiIT {

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(
                dir,
                SimulatorScript.builder()
                        .whenUserSays("add rest", Reply.toolCall("add_task", "{\"title\":\"rest\"}"))
                        .whenToolResult("add_task", Reply.text("Added rest."))
                        .always(Reply.text("plain answer"))
                        .build());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void tasks_can_be_created_listed_updated_completed_and_deleted() {
        String token = TestServer.token("rita");
        var created = t.api.post(
                "/v1/tasks",
                token,
                "{\"title\":\"file taxes\",\"priority\":\"high\",\"dueDate\":\"2030-04-15\",\"tags\":[\"money\"]}");
        assertThat(created.status()).isEqualTo(201);
        String id = created.body().path("task").path("id").asText();
        assertThat(created.body().path("task").path("priority").asText()).isEqualTo("high");

        assertThat(t.api.get("/v1/tasks?priority=high", token).body().path("tasks"))
                .hasSize(1);
        assertThat(t.api.get("/v1/tasks?tag=mon", token).body().path("tasks")).isEmpty();
        assertThat(t.api.get("/v1/tasks?tag=money", token).body().path("tasks")).hasSize(1);

        var updated = t.api.patch("/v1/tasks/" + id, token, "{\"title\":\"file taxes early\"}");
        assertThat(updated.body().path("task").path("title").asText()).isEqualTo("file taxes early");
        var done = t.api.post("/v1/tasks/" + id + "/complete", token, "{}");
        assertThat(done.body().path("task").path("status").asText()).isEqualTo("completed");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
        assertThat(t.api.get("/v1/tasks?status=completed", token).body().path("tasks"))
                .hasSize(1);
        assertThat(t.api.delete("/v1/tasks/" + id, token).status()).isEqualTo(204);
        assertThat(t.api.get("/v1/tasks/" + id, token).status()).isEqualTo(404);
    }

    @Test
    void a_viewer_cannot_write_tasks_by_hand_either() {
        var r = t.api.post("/v1/tasks", TestServer.token("vera", "viewer"), "{\"title\":\"nope\"}");
        assertThat(r.status()).isEqualTo(403);
    }

    @Test
    void the_catalogue_lists_the_agent_and_the_tools_the_caller_may_use() {
        var agents = t.api.get("/v1/agents", TestServer.token("cat"));
        assertThat(agents.body().path("agents"))
                .extracting(a -> a.path("id").asText())
                .contains("tasks");
        var tools = t.api.get("/v1/tools", TestServer.token("cat")).body().path("tools");
        assertThat(tools).extracting(x -> x.path("name").asText()).contains("add_task", "delete_task");
        assertThat(tools.get(0).path("parameters").path("type").asText()).isEqualTo("object");
        // a viewer does not see the write tools
        var viewerTools = t.api.get("/v1/tools", TestServer.token("cat2", "viewer"))
                .body()
                .path("tools");
        assertThat(viewerTools)
                .extracting(x -> x.path("name").asText())
                .contains("list_tasks")
                .doesNotContain("add_task");
    }

    @Test
    void one_shot_chat_creates_a_conversation_and_can_continue_it() {
        String token = TestServer.token("oscar");
        var first = t.api.post("/v1/chat", token, "{\"message\":\"add rest\"}");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body().path("answer").asText()).isEqualTo("Added rest.");
        String conversation = first.body().path("conversationId").asText();
        var second =
                t.api.post("/v1/chat", token, "{\"message\":\"thanks\",\"conversationId\":\"" + conversation + "\"}");
        assertThat(second.body().path("conversationId").asText()).isEqualTo(conversation);
        assertThat(t.api.get("/v1/sessions/" + conversation, token)
                        .body()
                        .path("messageCount")
                        .asInt())
                .isEqualTo(4);
    }

    @Test
    void a_send_repeated_with_the_same_idempotency_key_runs_once() {
        String token = TestServer.token("ida");
        String session = t.api.startSession(token, "tasks");
        byte[] body = "{\"content\":\"add rest\"}".getBytes();
        var first = t.api.post("/v1/sessions/" + session + "/messages", token, body, Map.of("Idempotency-Key", "k-1"));
        var again = t.api.post("/v1/sessions/" + session + "/messages", token, body, Map.of("Idempotency-Key", "k-1"));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).hasSize(1);
        var reused = t.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"something else\"}".getBytes(),
                Map.of("Idempotency-Key", "k-1"));
        assertThat(reused.status()).isEqualTo(422);
    }

    @Test
    void sessions_list_newest_first_and_can_be_completed_and_deleted() {
        String token = TestServer.token("lena");
        String older = t.api.startSession(token, "tasks");
        String newer = t.api.startSession(token, "tasks");
        var listed = t.api.get("/v1/sessions?limit=1", token).body();
        assertThat(listed.path("sessions").get(0).path("id").asText()).isEqualTo(newer);
        var next = t.api.get(
                        "/v1/sessions?limit=1&cursor="
                                + listed.path("nextCursor").asText(),
                        token)
                .body();
        assertThat(next.path("sessions").get(0).path("id").asText()).isEqualTo(older);

        assertThat(t.api.post("/v1/sessions/" + older + "/complete", token, "{}")
                        .status())
                .isEqualTo(200);
        var completed = t.api.get("/v1/sessions/" + older, token).body();
        assertThat(completed.path("state").asText()).isEqualTo("completed");
        assertThat(completed.path("endReason").asText()).isEqualTo("user");
        assertThat(t.api.get("/v1/sessions/" + newer, token).body().has("endReason"))
                .as("an active session has no end reason")
                .isFalse();
        assertThat(t.api.get("/v1/sessions?state=active", token).body().path("sessions"))
                .extracting(s -> s.path("id").asText())
                .containsExactly(newer);
        assertThat(t.api.delete("/v1/sessions/" + newer, token).status()).isEqualTo(204);
        assertThat(t.api.get("/v1/sessions/" + newer, token).status()).isEqualTo(404);
    }

    @Test
    void a_streamed_send_retried_with_its_idempotency_key_is_answered_from_the_finished_turn() {
        String token = TestServer.token("streamer");
        String session = t.api.startSession(token, "tasks");
        String path = "/v1/sessions/" + session + "/messages";
        Map<String, String> key = Map.of("Idempotency-Key", "sse-1");
        java.util.List<SseEvent> events;
        try (var stream = t.api.openStream(path, token, "{\"content\":\"add rest\"}", key)) {
            events = stream.all();
        }
        String streamed = events.stream()
                .filter(e -> e.event().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .reduce("", String::concat);
        var replay = t.api.post(path, token, "{\"content\":\"add rest\"}".getBytes(), key);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(replay.body().path("answer").asText()).isEqualTo(streamed);
        assertThat(replay.body().path("messageId").asText())
                .isEqualTo(events.getLast().data().path("messageId").asText());
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).hasSize(1);
    }
}
