package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.Fault;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat runtime's own API (design 001) over real HTTP with the simulator: its paths, its {@code toolId}, its SSE
 * events ({@code {type: chunk|tool_call|tool_result|done|error}}), complete, cancel, history and the admin audit; an
 * id that is no UUID is 400, as that design says.
 */
class ChatRuntimeApiIT {
    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = LearningFixture.start(dir, BundledScript.create());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void a_session_is_created_resumed_chatted_in_and_completed_with_the_designs_fields() {
        String token = TestServer.token("dora");
        var created = t.api.post("/sessions", token, "{\"toolId\":\"tasks\",\"submissionId\":\"sub-1\"}");
        assertThat(created.status()).isEqualTo(201);
        String id = created.body().path("id").asText();
        assertThat(created.body().path("toolId").asText()).isEqualTo("tasks");
        assertThat(created.body().path("state").asText()).isEqualTo("active");
        assertThat(created.body().path("startedAt").asText()).isNotBlank();

        // the design's resume: the newest active session for the tool
        var active = t.api.get("/sessions?toolId=tasks&state=active", token);
        assertThat(active.status()).isEqualTo(200);
        assertThat(active.body().path("sessions").get(0).path("id").asText()).isEqualTo(id);

        List<SseEvent> events = send(token, id, "add a task to buy eggs tomorrow");
        assertThat(events)
                .extracting(e -> e.data().path("type").asText())
                .startsWith("tool_call", "tool_result")
                .contains("chunk")
                .endsWith("done");
        JsonNode call = events.get(0).data().path("toolCall");
        assertThat(call.path("name").asText()).isEqualTo("add_task");
        assertThat(call.at("/args/title").asText()).isEqualTo("buy eggs");
        JsonNode result = events.get(1).data().path("toolResult");
        assertThat(result.path("id").asText()).isEqualTo(call.path("id").asText());
        assertThat(result.path("result").isMissingNode()).isFalse();
        String answer = events.stream()
                .filter(e -> e.data().path("type").asText().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .reduce("", String::concat);
        assertThat(answer).startsWith("Done — I've added “buy eggs”");
        JsonNode meta = events.getLast().data().path("meta");
        assertThat(meta.path("model").asText()).isNotBlank();
        assertThat(meta.path("tokens").asLong()).isPositive();
        assertThat(meta.has("latencyMs")).isTrue();

        var session = t.api.get("/sessions/" + id, token);
        assertThat(session.body().path("messageCount").asInt()).isEqualTo(2);
        var history = t.api.get("/sessions/" + id + "/messages", token);
        assertThat(history.body().path("messages"))
                .extracting(m -> m.path("role").asText())
                .containsExactly("user", "assistant");

        var done = t.api.post("/sessions/" + id + "/complete", token, "{}");
        assertThat(done.status()).isEqualTo(200);
        assertThat(done.body().path("state").asText()).isEqualTo("completed");
        assertThat(done.body().path("endedAt").asText()).isNotBlank();
        assertThat(t.api.post("/sessions/" + id + "/messages", token, "{\"content\":\"more\"}")
                        .status())
                .isEqualTo(409);
    }

    @Test
    void a_model_failure_is_the_designs_error_event() {
        String token = TestServer.token("erin");
        String id = create(token);
        t.simulator.enqueueFault(Fault.http500());

        List<SseEvent> events = send(token, id, "list my tasks");

        SseEvent error = events.stream()
                .filter(e -> e.data().path("type").asText().equals("error"))
                .findFirst()
                .orElseThrow();
        assertThat(error.data().path("error").asText()).isNotBlank();
        assertThat(error.data().path("code").asText()).isEqualTo("model_unavailable");
    }

    @Test
    void an_id_that_is_no_uuid_is_400_and_someone_elses_session_is_404() {
        String token = TestServer.token("finn");
        assertError(t.api.get("/sessions/not-a-uuid", token), 400);
        assertError(t.api.post("/sessions/123/complete", token, "{}"), 400);
        assertError(t.api.post("/sessions/123/messages", token, "{\"content\":\"hi\"}"), 400);

        String others = create(TestServer.token("gina"));
        assertError(t.api.get("/sessions/" + others, token), 404);
        assertError(t.api.post("/sessions/" + others + "/messages", token, "{\"content\":\"hi\"}"), 404);
        assertError(t.api.get("/sessions/" + others + "/messages", token), 404);
        assertError(t.api.get("/sessions/0190b2d4-0000-7000-8000-000000000000", token), 404);
    }

    @Test
    void bad_bodies_and_missing_tokens_are_refused_precisely() {
        String token = TestServer.token("hal");
        assertError(t.api.post("/sessions", token, "{\"toolId\":\"nope\"}"), 404);
        assertError(t.api.post("/sessions", token, "{\"agent\":\"tasks\"}"), 400);
        assertError(t.api.post("/sessions", token, "not json"), 400);
        String id = create(token);
        assertError(t.api.post("/sessions/" + id + "/messages", token, "{}"), 400);
        assertError(t.api.get("/sessions?limit=0", token), 400);
        assertError(t.api.get("/sessions?state=paused", token), 400);
        assertThat(t.api.post("/sessions", null, "{\"toolId\":\"tasks\"}").status())
                .isEqualTo(401);
        assertThat(t.api.get("/admin/sessions/" + id + "/audit", null).status()).isEqualTo(401);
    }

    @Test
    void cancel_answers_whether_a_stream_was_cancelled_and_the_audit_is_for_admins_only() {
        String token = TestServer.token("ivan");
        String id = create(token);
        var cancel = t.api.post("/sessions/" + id + "/cancel", token, "{}");
        assertThat(cancel.status()).isEqualTo(200);
        assertThat(cancel.body().path("cancelled").asBoolean()).isFalse();

        send(token, id, "list my tasks");
        assertError(t.api.get("/admin/sessions/" + id + "/audit", token), 403);
        var audit = t.api.get("/admin/sessions/" + id + "/audit", TestServer.token("root", "admin"));
        assertThat(audit.status()).isEqualTo(200);
        assertThat(audit.body().path("auditRecords").isArray()).isTrue();
        assertThat(audit.body().path("approvals").isArray()).isTrue();
    }

    private static String create(String token) {
        var created = t.api.post("/sessions", token, "{\"toolId\":\"tasks\"}");
        assertThat(created.status()).isEqualTo(201);
        return created.body().path("id").asText();
    }

    private static List<SseEvent> send(String token, String session, String content) {
        String body = "{\"content\":\"" + content + "\"}";
        try (var s = t.api.openStream("/sessions/" + session + "/messages", token, body)) {
            assertThat(s.status).isEqualTo(200);
            return s.all();
        }
    }

    private static void assertError(ApiClient.Response r, int status) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        assertThat(r.body().at("/error/code").asText()).isNotBlank();
    }
}
