package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.Fault;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stateless orchestrator's own API (design 003) over real HTTP with the simulator: {@code POST /chat/stream} and
 * that design's event names and fields only (thinking, tool_call, response_delta, error, done).
 */
class OrchestratorApiIT {
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
    void a_tool_calling_turn_streams_the_designs_events_with_exactly_its_fields() {
        List<SseEvent> events = stream(TestServer.token("tom"), "{\"input\":\"add a task to buy eggs tomorrow\"}");

        assertThat(events)
                .extracting(SseEvent::event)
                .startsWith("tool_call", "tool_call")
                .endsWith("done");
        SseEvent started = events.get(0);
        assertThat(fields(started.data())).containsExactly("tool_name", "arguments", "status");
        assertThat(started.data().path("tool_name").asText()).isEqualTo("add_task");
        assertThat(started.data().path("status").asText()).isEqualTo("in_progress");
        assertThat(events.get(1).data().path("status").asText()).isEqualTo("completed");
        assertThat(events.get(1).data().at("/arguments/title").asText()).isEqualTo("buy eggs");
        List<SseEvent> deltas =
                events.stream().filter(e -> e.event().equals("response_delta")).toList();
        assertThat(deltas).isNotEmpty();
        assertThat(fields(deltas.getFirst().data())).containsExactly("delta", "accumulated");
        SseEvent done = events.getLast();
        assertThat(fields(done.data()))
                .containsExactly("final_output", "tools_called", "success", "conversation_id", "request_id");
        assertThat(done.data().path("final_output").asText())
                .isEqualTo(deltas.getLast().data().path("accumulated").asText())
                .startsWith("Done — I've added “buy eggs”");
        assertThat(done.data().path("tools_called").get(0).asText()).isEqualTo("add_task");
        assertThat(done.data().path("success").asBoolean()).isTrue();
    }

    @Test
    void the_done_event_names_the_request_id_the_client_sent_as_the_design_asks() {
        List<SseEvent> events;
        try (var s = t.api.openStream(
                "/chat/stream",
                TestServer.token("rid"),
                "{\"input\":\"list my tasks\"}",
                java.util.Map.of("X-Request-ID", "req_0123456789ab"))) {
            assertThat(s.status).isEqualTo(200);
            events = s.all();
        }
        assertThat(events.getLast().event()).isEqualTo("done");
        assertThat(events.getLast().data().path("request_id").asText()).isEqualTo("req_0123456789ab");
    }

    @Test
    void invalid_input_is_422_as_the_design_says() {
        String token = TestServer.token("val");

        assertThat(post(token, "{}").status()).isEqualTo(422);
        assertThat(post(token, "{\"input\":\"\"}").status()).isEqualTo(422);
        assertThat(post(token, "{\"input\":\"\\u0007\\u0001\"}").status()).isEqualTo(422);
        var tooLong = post(token, "{\"input\":\"" + "a".repeat(5001) + "\"}");
        assertThat(tooLong.status()).isEqualTo(422);
        assertThat(tooLong.body().at("/error/message").asText()).contains("1-5000 characters");
        assertThat(post(token, "{\"input\":42}").status()).isEqualTo(422);
        assertThat(post(token, "{\"input\":\"hi\",\"conversation_id\":\"conv_123abc\"}")
                        .status())
                .isEqualTo(422);
        assertThat(post(token, "{\"input\":\"" + "a".repeat(5000) + "\"}").status())
                .isNotEqualTo(422);
    }

    @Test
    void control_characters_are_stripped_before_the_model_sees_the_input() {
        t.simulator.clearRequests();
        List<SseEvent> events = stream(TestServer.token("ctl"), "{\"input\":\"list my\\u0007 tasks\\u0000\"}");

        assertThat(events.getLast().data().path("success").asBoolean()).isTrue();
        assertThat(t.simulator.requests().getFirst().lastUserMessage()).isEqualTo("list my tasks");
    }

    @Test
    void a_user_id_that_is_not_the_callers_is_403_and_their_own_is_fine() {
        var other = post(TestServer.token("uma"), "{\"input\":\"list my tasks\",\"user_id\":\"someone-else\"}");
        assertThat(other.status()).isEqualTo(403);
        List<SseEvent> own = stream(TestServer.token("uma"), "{\"input\":\"list my tasks\",\"user_id\":\"uma\"}");
        assertThat(own.getLast().event()).isEqualTo("done");
        assertThat(post(null, "{\"input\":\"hi\"}").status()).isEqualTo(401);
    }

    @Test
    void the_stream_names_its_conversation_and_a_second_request_with_that_id_continues_it() {
        String token = TestServer.token("cy");
        String header;
        List<SseEvent> first;
        try (var s = t.api.openStream("/chat/stream", token, "{\"input\":\"add a task to call mom\"}")) {
            assertThat(s.status).isEqualTo(200);
            header = s.headers.firstValue("X-Conversation-ID").orElseThrow();
            first = s.all();
        }
        String conversation = first.getLast().data().path("conversation_id").asText();
        assertThat(conversation).isEqualTo(header).matches("[0-9a-f-]{36}");
        assertThat(t.api.get("/v1/sessions?agentId=tasks", token)
                        .body()
                        .at("/sessions/0/id")
                        .asText())
                .isEqualTo(conversation);

        List<SseEvent> events;
        try (var s = t.api.openStream(
                "/chat/stream", token, "{\"input\":\"list my tasks\",\"conversation_id\":\"" + conversation + "\"}")) {
            assertThat(s.headers.firstValue("X-Conversation-ID")).contains(conversation);
            events = s.all();
        }

        assertThat(events.getLast().data().path("conversation_id").asText()).isEqualTo(conversation);
        assertThat(events.getLast().data().path("final_output").asText()).contains("call mom");
        assertThat(t.api.get("/v1/sessions/" + conversation, token)
                        .body()
                        .path("messageCount")
                        .asInt())
                .isEqualTo(4);
        // a new request without the id is a new conversation, named as such
        assertThat(stream(token, "{\"input\":\"list my tasks\"}")
                        .getLast()
                        .data()
                        .path("conversation_id")
                        .asText())
                .isNotEqualTo(conversation);
    }

    @Test
    void another_users_conversation_id_is_404_like_a_missing_one_and_names_nothing() {
        String conversation = stream(TestServer.token("own"), "{\"input\":\"list my tasks\"}")
                .getLast()
                .data()
                .path("conversation_id")
                .asText();

        var foreign = post(
                TestServer.token("eve"), "{\"input\":\"list my tasks\",\"conversation_id\":\"" + conversation + "\"}");
        var missing = post(
                TestServer.token("eve"),
                "{\"input\":\"list my tasks\",\"conversation_id\":\"01900000-0000-7000-8000-000000000000\"}");

        assertThat(foreign.status()).isEqualTo(404);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(foreign.body().at("/error/code").asText())
                .isEqualTo(missing.body().at("/error/code").asText());
        assertThat(foreign.headers().firstValue("X-Conversation-ID")).isEmpty();
    }

    @Test
    void a_model_failure_is_an_error_event_then_an_unsuccessful_done() {
        t.simulator.enqueueFault(Fault.http500());

        List<SseEvent> events = stream(TestServer.token("err"), "{\"input\":\"list my tasks\"}");

        SseEvent error = events.stream()
                .filter(e -> e.event().equals("error"))
                .findFirst()
                .orElseThrow();
        assertThat(fields(error.data())).containsExactly("error_type", "message", "recoverable", "request_id");
        assertThat(events.getLast().event()).isEqualTo("done");
        assertThat(events.getLast().data().path("success").asBoolean()).isFalse();
    }

    private static List<SseEvent> stream(String token, String body) {
        try (var s = t.api.openStream("/chat/stream", token, body)) {
            assertThat(s.status).isEqualTo(200);
            return s.all();
        }
    }

    private static ApiClient.Response post(String token, String body) {
        return t.api.post("/chat/stream", token, body);
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
