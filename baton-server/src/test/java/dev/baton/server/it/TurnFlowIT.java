package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole turns over HTTP/SSE, with the simulator scripted to call the task tools. */
class TurnFlowIT {

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays("add milk", Reply.toolCall("add_task", "{\"title\":\"milk\"}"))
                .whenUserSays(
                        "add two",
                        Reply.toolCalls(
                                new Reply.ToolCall("add_task", "{\"title\":\"bread\"}"),
                                new Reply.ToolCall("add_task", "{\"title\":\"eggs\",\"priority\":\"high\"}")))
                .whenUserSays("bad args", Reply.toolCall("add_task", "{\"title\":5,\"colour\":\"red\"}"))
                .whenUserSays("broken json", Reply.toolCall("add_task", "{\"title\": \"unterminated"))
                .whenUserSays("keep looping", Reply.toolCall("list_tasks", "{}"))
                .responder("same call twice", TurnFlowIT::sameCallTwice)
                .whenToolResult("list_tasks", Reply.toolCall("list_tasks", "{\"status\":\"all\"}"))
                .whenToolResult("add_task", Reply.text("All done."))
                .fallback("I can help with tasks.")
                .build();
        t = TestServer.start(dir, script);
    }

    /** "twice": the model asks for the very same call again after the first result, then answers. */
    static Optional<Reply> sameCallTwice(RecordedRequest r) {
        if (!r.lastUserMessage().contains("twice")) return Optional.empty();
        int results = r.toolResults().size();
        if (results < 2) return Optional.of(Reply.toolCall("add_task", "{\"title\":\"water plants\"}"));
        return Optional.of(Reply.text("Added it."));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void a_tool_calling_turn_streams_events_in_exact_order_and_persists_everything() {
        String token = TestServer.token("alice");
        String session = t.api.startSession(token, "tasks");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "add milk")) {
            assertThat(stream.status).isEqualTo(200);
            assertThat(stream.headers.firstValue("content-type").orElse("")).startsWith("text/event-stream");
            events = stream.all();
        }

        List<String> types = events.stream().map(SseEvent::event).toList();
        assertThat(types.getFirst()).isEqualTo("turn.started");
        assertThat(types.subList(1, 3)).containsExactly("tool_call", "tool_result");
        assertThat(types.subList(3, types.size() - 1)).isNotEmpty().allMatch("chunk"::equals);
        assertThat(types.getLast()).isEqualTo("done");
        // ids are monotonic and every data repeats its event type
        assertThat(events).extracting(SseEvent::id).isSorted().doesNotHaveDuplicates();
        assertThat(events).allSatisfy(e -> assertThat(e.type()).isEqualTo(e.event()));

        JsonNode call = events.get(1).data();
        assertThat(call.path("name").asText()).isEqualTo("add_task");
        assertThat(call.path("arguments").path("title").asText()).isEqualTo("milk");
        JsonNode result = events.get(2).data();
        assertThat(result.path("ok").asBoolean()).isTrue();
        assertThat(result.path("id").asText()).isEqualTo(call.path("id").asText());
        assertThat(result.path("result").path("task").path("title").asText()).isEqualTo("milk");

        String answer = events.stream()
                .filter(e -> e.event().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .reduce("", String::concat);
        assertThat(answer).isEqualTo("All done.");
        JsonNode done = events.getLast().data();
        assertThat(done.path("toolsCalled")).extracting(JsonNode::asText).containsExactly("add_task");
        assertThat(done.path("usage").path("inputTokens").asLong()).isPositive();
        assertThat(done.path("model").asText()).isNotBlank();

        // the task exists for alice through the same service the REST API uses
        var tasks = t.api.get("/v1/tasks", token);
        assertThat(tasks.body().path("tasks"))
                .extracting(n -> n.path("title").asText())
                .containsExactly("milk");

        // and the conversation is stored: user message, assistant answer with its tool call
        JsonNode messages =
                t.api.get("/v1/sessions/" + session + "/messages", token).body().path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("user");
        assertThat(messages.get(0).path("content").asText()).isEqualTo("add milk");
        assertThat(messages.get(1).path("content").asText()).isEqualTo("All done.");
        assertThat(messages.get(1).path("id").asText())
                .isEqualTo(done.path("messageId").asText());
        assertThat(messages.get(1).path("toolCalls").get(0).path("name").asText())
                .isEqualTo("add_task");
        assertThat(messages.get(1).path("toolCalls").get(0).path("state").asText())
                .isEqualTo("succeeded");
    }

    @Test
    void two_tool_calls_of_one_response_both_run_and_are_reported_in_model_order() {
        String token = TestServer.token("bob");
        String session = t.api.startSession(token, "tasks");
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "add two")) {
            events = stream.all();
        }
        List<SseEvent> tools =
                events.stream().filter(e -> e.event().startsWith("tool_")).toList();
        assertThat(tools)
                .extracting(SseEvent::event)
                .containsExactly("tool_call", "tool_call", "tool_result", "tool_result");
        assertThat(tools.get(2).data().path("result").path("task").path("title").asText())
                .isEqualTo("bread");
        assertThat(tools.get(3).data().path("result").path("task").path("title").asText())
                .isEqualTo("eggs");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks"))
                .extracting(n -> n.path("title").asText())
                .containsExactlyInAnyOrder("bread", "eggs");
    }

    @Test
    void invalid_tool_arguments_go_back_to_the_model_as_a_tool_error_and_are_recorded() {
        String token = TestServer.token("carol");
        String session = t.api.startSession(token, "tasks");
        int before = t.simulator.requests().size();
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "bad args")) {
            events = stream.all();
        }
        SseEvent result = events.stream()
                .filter(e -> e.event().equals("tool_result"))
                .findFirst()
                .orElseThrow();
        assertThat(result.data().path("ok").asBoolean()).isFalse();
        assertThat(result.data().path("error").asText()).containsIgnoringCase("colour");
        assertThat(events.getLast().event()).isEqualTo("done");

        // the model's second request carries the error as the tool message
        RecordedRequest second = t.simulator.requests().get(before + 1);
        assertThat(second.lastToolResult().orElseThrow().content()).contains("\"error\"");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
        JsonNode stored = t.api.get("/v1/sessions/" + session + "/messages", token)
                .body()
                .path("messages")
                .get(1);
        assertThat(stored.path("toolCalls").get(0).path("state").asText()).isEqualTo("invalid_arguments");
    }

    @Test
    void unparseable_tool_arguments_are_a_tool_error_not_a_crash() {
        String token = TestServer.token("carla");
        String session = t.api.startSession(token, "tasks");
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "broken json")) {
            events = stream.all();
        }
        SseEvent result = events.stream()
                .filter(e -> e.event().equals("tool_result"))
                .findFirst()
                .orElseThrow();
        assertThat(result.data().path("ok").asBoolean()).isFalse();
        assertThat(events.getLast().event()).isEqualTo("done");
    }

    @Test
    void a_tool_the_user_lacks_permission_for_is_refused_and_never_runs() {
        String token = TestServer.token("victor", "viewer");
        String session = t.api.startSession(token, "tasks");
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "add milk")) {
            events = stream.all();
        }
        SseEvent result = events.stream()
                .filter(e -> e.event().equals("tool_result"))
                .findFirst()
                .orElseThrow();
        assertThat(result.data().path("ok").asBoolean()).isFalse();
        assertThat(result.data().path("error").asText()).containsIgnoringCase("permission");
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).isEmpty();
        JsonNode stored = t.api.get("/v1/sessions/" + session + "/messages", token)
                .body()
                .path("messages")
                .get(1);
        assertThat(stored.path("toolCalls").get(0).path("state").asText()).isEqualTo("denied");
    }

    @Test
    void a_model_that_keeps_calling_tools_stops_at_the_iteration_limit_with_a_clear_message() {
        String token = TestServer.token("dave");
        String session = t.api.startSession(token, "tasks");
        int before = t.simulator.requests().size();
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "keep looping")) {
            events = stream.all();
        }
        assertThat(t.simulator.requests().size() - before).isEqualTo(5);
        assertThat(events.getLast().event()).isEqualTo("done");
        String answer = events.stream()
                .filter(e -> e.event().equals("chunk"))
                .map(e -> e.data().path("content").asText())
                .reduce("", String::concat);
        assertThat(answer).contains("5 steps");
        // the tools of the last reply are not run: the limit stops the loop before them
        assertThat(events.stream().filter(e -> e.event().equals("tool_call")).count())
                .isEqualTo(4);
    }

    @Test
    void an_identical_call_repeated_in_one_turn_is_answered_from_the_first_result() {
        String token = TestServer.token("erin");
        String session = t.api.startSession(token, "tasks");
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "add it twice")) {
            events = stream.all();
        }
        List<SseEvent> results =
                events.stream().filter(e -> e.event().equals("tool_result")).toList();
        assertThat(results).hasSize(2);
        assertThat(results.get(1).data().path("result"))
                .isEqualTo(results.get(0).data().path("result"));
        // executed once: one task, and the second call is stored as deduplicated
        assertThat(t.api.get("/v1/tasks", token).body().path("tasks")).hasSize(1);
        JsonNode stored = t.api.get("/v1/sessions/" + session + "/messages", token)
                .body()
                .path("messages")
                .get(1);
        assertThat(stored.path("toolCalls"))
                .extracting(n -> n.path("state").asText())
                .containsExactly("succeeded", "deduplicated");
    }

    @Test
    void without_accept_event_stream_the_answer_is_one_json_document() {
        String token = TestServer.token("fay");
        String session = t.api.startSession(token, "tasks");
        var r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"add milk\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo("All done.");
        assertThat(r.body().path("toolCalls").get(0).path("name").asText()).isEqualTo("add_task");
        assertThat(r.body().path("messageId").asText()).isNotBlank();
        assertThat(r.body().path("usage").path("outputTokens").asLong()).isPositive();
    }
}
