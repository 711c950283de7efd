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
 * Conversational confirmation over HTTP on the designs' own APIs, in their clients' fields only: design 004's
 * {@code POST /api/{user_id}/chat} and design 003's {@code POST /chat/stream}. The bundled task agent (on the LLM
 * simulator) lists the tasks and calls {@code delete_task}, which waits for approval; the door answers with the
 * question in words, and the user's next message decides. Tasks are checked through the REST API, decisions through
 * the admin audit. The server's clock is the test's, so expiry is a moved clock, not a wait.
 */
class ConfirmInWordsIT {
    static final Instant START = Instant.parse("2026-05-04T09:00:00Z");
    static final String ASKED = "Delete the task 'buy wax'? Reply yes or no.";

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
                        "jdbc:sqlite:" + dir.resolve("confirm.db"),
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

    /** Adds "buy wax" through design 004's own chat; returns the task's id (read back through the REST API). */
    static String buyWax(String user, String token) {
        var added = todo(user, token, null, "add a task to buy wax");
        assertThat(added.status()).as(added.raw()).isEqualTo(200);
        JsonNode tasks = tasks(token);
        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0).path("title").asText()).isEqualTo("buy wax");
        return tasks.get(0).path("id").asText();
    }

    static ApiClient.Response todo(String user, String token, String conversation, String message) {
        var body = ApiClient.JSON.createObjectNode().put("message", message);
        if (conversation != null) body.put("conversation_id", conversation);
        return t.api.post("/api/" + user + "/chat", token, body.toString());
    }

    static JsonNode tasks(String token) {
        return t.api.get("/v1/tasks", token).body().path("tasks");
    }

    static JsonNode audit(String conversation) {
        return t.api.get(
                        "/v1/admin/sessions/" + conversation + "/audit",
                        LimitsFixture.token("boss", "acme", "admin", Instant.now()))
                .body()
                .path("approvals");
    }

    // ---- design 004: the todo chatbot

    @Test
    void todo_delete_asks_with_the_tasks_title_and_yes_deletes_it() {
        String token = token("yara");
        String taskId = buyWax("yara", token);

        var asked = todo("yara", token, null, "delete buy wax");

        assertThat(asked.status()).as(asked.raw()).isEqualTo(200);
        assertThat(asked.body().path("response").asText()).isEqualTo(ASKED);
        assertThat(asked.body().at("/tool_calls/0/tool").asText()).isEqualTo("list_tasks");
        assertThat(asked.body().path("created_at").asText()).matches("\\d{4}-\\d{2}-\\d{2}T.*Z");
        assertThat(tasks(token)).hasSize(1);
        String conversation = asked.body().path("conversation_id").asText();

        var yes = todo("yara", token, conversation, "Yes!");

        assertThat(yes.status()).as(yes.raw()).isEqualTo(200);
        assertThat(yes.body().path("conversation_id").asText()).isEqualTo(conversation);
        assertThat(yes.body().path("response").asText()).isEqualTo("I've deleted “buy wax”.");
        assertThat(yes.body().path("tool_calls"))
                .extracting(c -> c.path("tool").asText())
                .containsExactly("list_tasks", "delete_task");
        assertThat(yes.body().at("/tool_calls/1/result/deleted").asBoolean()).isTrue();
        assertThat(tasks(token)).isEmpty();
        JsonNode decided = audit(conversation).get(0);
        assertThat(decided.path("status").asText()).isEqualTo("approved");
        assertThat(decided.path("decidedBy").asText()).isEqualTo("yara");
        assertThat(decided.path("comment").asText()).isEqualTo("Yes!");
        assertThat(decided.at("/arguments/taskId").asText()).isEqualTo(taskId);
    }

    @Test
    void todo_no_keeps_the_task_and_the_model_is_told() {
        String token = token("noor");
        buyWax("noor", token);
        String conversation = todo("noor", token, null, "delete buy wax")
                .body()
                .path("conversation_id")
                .asText();

        var no = todo("noor", token, conversation, "no");

        assertThat(no.status()).as(no.raw()).isEqualTo(200);
        // the bundled agent repeats the tool's error: the model heard the denial
        assertThat(no.body().path("response").asText()).as(no.raw()).contains("did not approve");
        // the paused turn went on: its calls are the whole turn's, the held one denied
        assertThat(no.body().path("tool_calls"))
                .extracting(c -> c.path("tool").asText())
                .containsExactly("list_tasks", "delete_task");
        assertThat(no.body().at("/tool_calls/1/error").asText()).contains("did not approve");
        assertThat(tasks(token)).hasSize(1);
        JsonNode decided = audit(conversation).get(0);
        assertThat(decided.path("status").asText()).isEqualTo("denied");
        assertThat(decided.path("decidedBy").asText()).isEqualTo("noor");
    }

    @Test
    void todo_anything_else_denies_with_it_as_the_comment_and_is_answered_as_a_new_turn() {
        String token = token("otto");
        buyWax("otto", token);
        String conversation = todo("otto", token, null, "delete buy wax")
                .body()
                .path("conversation_id")
                .asText();

        var other = todo("otto", token, conversation, "list my tasks");

        assertThat(other.status()).as(other.raw()).isEqualTo(200);
        assertThat(other.body().path("response").asText()).isEqualTo("You have 1 open task:\n1. buy wax");
        assertThat(other.body().at("/tool_calls/0/tool").asText()).isEqualTo("list_tasks");
        assertThat(tasks(token)).hasSize(1);
        JsonNode decided = audit(conversation).get(0);
        assertThat(decided.path("status").asText()).isEqualTo("denied");
        assertThat(decided.path("decidedBy").asText()).isEqualTo("otto");
        assertThat(decided.path("comment").asText()).isEqualTo("list my tasks");

        // nothing waits any more: a yes now is just a message, and deletes nothing
        var lateYes = todo("otto", token, conversation, "yes");
        assertThat(lateYes.status()).isEqualTo(200);
        assertThat(tasks(token)).hasSize(1);
        assertThat(audit(conversation)).hasSize(1);
    }

    @Test
    void todo_a_yes_after_the_call_expired_approves_nothing_and_says_so() {
        String token = token("ezra");
        buyWax("ezra", token);
        Instant pausedAt = clock.instant();
        String conversation = todo("ezra", token, null, "delete buy wax")
                .body()
                .path("conversation_id")
                .asText();

        clock.set(pausedAt.plus(Duration.ofHours(24)).plusSeconds(1));
        try {
            var late = todo("ezra", token, conversation, "yes");

            assertThat(late.status()).as(late.raw()).isEqualTo(200);
            assertThat(late.body().path("response").asText())
                    .contains("expired")
                    .contains("did not do it");
            assertThat(late.body().path("tool_calls")).isEmpty();
            assertThat(tasks(token)).hasSize(1);
            assertThat(audit(conversation).get(0).path("status").asText()).isEqualTo("expired");
        } finally {
            clock.set(START);
        }
    }

    @Test
    void todo_a_yes_after_the_expiry_job_closed_the_call_approves_nothing_and_says_so() {
        String token = token("ines");
        buyWax("ines", token);
        Instant pausedAt = clock.instant();
        String conversation = todo("ines", token, null, "delete buy wax")
                .body()
                .path("conversation_id")
                .asText();

        clock.set(pausedAt.plus(Duration.ofHours(24)).plusSeconds(1));
        try {
            assertThat(t.server.runtime().approvals().expire()).isGreaterThanOrEqualTo(1);

            var late = todo("ines", token, conversation, "go ahead");

            assertThat(late.status()).as(late.raw()).isEqualTo(200);
            assertThat(late.body().path("response").asText()).contains("expired");
            assertThat(tasks(token)).hasSize(1);
            assertThat(audit(conversation).get(0).path("status").asText()).isEqualTo("expired");
        } finally {
            clock.set(START);
        }
    }

    @Test
    void another_users_yes_decides_nothing() {
        String token = token("pia");
        buyWax("pia", token);
        String conversation = todo("pia", token, null, "delete buy wax")
                .body()
                .path("conversation_id")
                .asText();

        var foreign = todo("mal", token("mal"), conversation, "yes");

        assertThat(foreign.status()).isEqualTo(404);
        assertThat(tasks(token)).hasSize(1);
        assertThat(audit(conversation).get(0).path("status").asText()).isEqualTo("pending");
    }

    @Test
    void a_refused_reply_decides_nothing_and_the_question_still_waits() {
        String token = token("rafa");
        buyWax("rafa", token);
        String conversation = todo("rafa", token, null, "delete buy wax")
                .body()
                .path("conversation_id")
                .asText();

        var tooLong = todo("rafa", token, conversation, "x".repeat(10_001));
        var blank = todo("rafa", token, conversation, "   ");

        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(blank.status()).isEqualTo(400);
        assertThat(audit(conversation).get(0).path("status").asText()).isEqualTo("pending");
        var yes = todo("rafa", token, conversation, "yes");
        assertThat(yes.body().path("response").asText()).isEqualTo("I've deleted “buy wax”.");
        assertThat(tasks(token)).isEmpty();
    }

    // ---- design 003: the stateless orchestrator's stream

    static ApiClient.SseStream orchestrator(String token, String conversation, String input) {
        var body = ApiClient.JSON.createObjectNode().put("input", input);
        if (conversation != null) body.put("conversation_id", conversation);
        return t.api.openStream("/chat/stream", token, body.toString());
    }

    @Test
    void stream_delete_asks_in_final_output_names_the_conversation_and_yes_deletes() {
        String token = token("sam");
        buyWax("sam", token);

        String conversation;
        List<SseEvent> asked;
        try (var s = orchestrator(token, null, "delete buy wax")) {
            assertThat(s.status).isEqualTo(200);
            conversation = s.headers.firstValue("X-Conversation-ID").orElseThrow();
            asked = s.all();
        }

        SseEvent done = asked.getLast();
        assertThat(done.event()).isEqualTo("done");
        assertThat(done.data().path("final_output").asText()).isEqualTo(ASKED);
        assertThat(done.data().path("conversation_id").asText()).isEqualTo(conversation);
        assertThat(done.data().path("success").asBoolean()).isTrue();
        assertThat(tasks(token)).hasSize(1);

        List<SseEvent> answered;
        try (var s = orchestrator(token, conversation, "ok")) {
            assertThat(s.status).isEqualTo(200);
            assertThat(s.headers.firstValue("X-Conversation-ID")).contains(conversation);
            answered = s.all();
        }

        assertThat(answered)
                .filteredOn(e -> e.event().equals("tool_call"))
                .extracting(e -> e.data().path("tool_name").asText() + ":"
                        + e.data().path("status").asText())
                .containsExactly("delete_task:in_progress", "delete_task:completed");
        SseEvent last = answered.getLast();
        assertThat(last.event()).isEqualTo("done");
        assertThat(last.data().path("final_output").asText()).isEqualTo("I've deleted “buy wax”.");
        assertThat(last.data().path("conversation_id").asText()).isEqualTo(conversation);
        assertThat(tasks(token)).isEmpty();
        assertThat(audit(conversation).get(0).path("status").asText()).isEqualTo("approved");
    }

    @Test
    void stream_no_keeps_the_task() {
        String token = token("tess");
        buyWax("tess", token);
        String conversation;
        try (var s = orchestrator(token, null, "delete buy wax")) {
            conversation = s.headers.firstValue("X-Conversation-ID").orElseThrow();
            assertThat(s.all().getLast().data().path("final_output").asText()).isEqualTo(ASKED);
        }

        List<SseEvent> answered;
        try (var s = orchestrator(token, conversation, "Cancel.")) {
            answered = s.all();
        }

        assertThat(answered.getLast().data().path("final_output").asText()).contains("did not approve");
        assertThat(tasks(token)).hasSize(1);
        assertThat(audit(conversation).get(0).path("status").asText()).isEqualTo("denied");
    }

    @Test
    void stream_anything_else_denies_and_is_answered_as_a_new_turn() {
        String token = token("uma");
        buyWax("uma", token);
        String conversation;
        try (var s = orchestrator(token, null, "delete buy wax")) {
            conversation = s.headers.firstValue("X-Conversation-ID").orElseThrow();
            s.all();
        }

        List<SseEvent> answered;
        try (var s = orchestrator(token, conversation, "list my tasks")) {
            answered = s.all();
        }

        assertThat(answered.getLast().data().path("final_output").asText())
                .isEqualTo("You have 1 open task:\n1. buy wax");
        assertThat(tasks(token)).hasSize(1);
        JsonNode decided = audit(conversation).get(0);
        assertThat(decided.path("status").asText()).isEqualTo("denied");
        assertThat(decided.path("comment").asText()).isEqualTo("list my tasks");
    }

    @Test
    void stream_a_yes_after_the_call_expired_approves_nothing_and_says_so() {
        String token = token("vic");
        buyWax("vic", token);
        Instant pausedAt = clock.instant();
        String conversation;
        try (var s = orchestrator(token, null, "delete buy wax")) {
            conversation = s.headers.firstValue("X-Conversation-ID").orElseThrow();
            s.all();
        }

        clock.set(pausedAt.plus(Duration.ofHours(24)).plusSeconds(1));
        try {
            List<SseEvent> late;
            try (var s = orchestrator(token, conversation, "yes")) {
                assertThat(s.status).isEqualTo(200);
                late = s.all();
            }

            SseEvent done = late.getLast();
            assertThat(done.event()).isEqualTo("done");
            assertThat(done.data().path("final_output").asText()).contains("expired");
            assertThat(done.data().path("conversation_id").asText()).isEqualTo(conversation);
            assertThat(late).noneMatch(e -> e.event().equals("tool_call"));
            assertThat(tasks(token)).hasSize(1);
            assertThat(audit(conversation).get(0).path("status").asText()).isEqualTo("expired");
        } finally {
            clock.set(START);
        }
    }
}
