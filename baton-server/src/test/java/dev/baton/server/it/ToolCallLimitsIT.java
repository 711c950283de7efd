package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tool calls per turn and per conversation are bounded; calls over a bound never run. */
class ToolCallLimitsIT {

    @TempDir
    Path dir;

    @Test
    void calls_over_the_per_turn_and_per_conversation_limits_are_refused_and_not_run() {
        TurnLimits limits = new TurnLimits(
                5, 2, 3, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays(
                        "three at once",
                        Reply.toolCalls(
                                new Reply.ToolCall("add_task", "{\"title\":\"one\"}"),
                                new Reply.ToolCall("add_task", "{\"title\":\"two\"}"),
                                new Reply.ToolCall("add_task", "{\"title\":\"three\"}")))
                .whenUserSays(
                        "more",
                        Reply.toolCalls(
                                new Reply.ToolCall("add_task", "{\"title\":\"four\"}"),
                                new Reply.ToolCall("add_task", "{\"title\":\"five\"}")))
                .whenToolResult("add_task", Reply.text("Done what I could."))
                .build();
        try (LlmSimulator sim = LlmSimulator.start(script);
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), limits, sim, false)) {
            String token = TestServer.token("limited");
            String session = t.api.startSession(token, "tasks");

            List<SseEvent> first;
            try (var s = t.api.stream(session, token, "three at once")) {
                first = s.all();
            }
            List<JsonNode> results = first.stream()
                    .filter(e -> e.event().equals("tool_result"))
                    .map(SseEvent::data)
                    .toList();
            assertThat(results).extracting(r -> r.path("ok").asBoolean()).containsExactly(true, true, false);
            assertThat(results.get(2).path("error").asText()).contains("tool_call_limit_reached");

            List<SseEvent> second;
            try (var s = t.api.stream(session, token, "more")) {
                second = s.all();
            }
            // every call the model asked for counts towards the conversation's 3, the refused one too
            List<JsonNode> refused = second.stream()
                    .filter(e -> e.event().equals("tool_result"))
                    .map(SseEvent::data)
                    .toList();
            assertThat(refused).extracting(r -> r.path("ok").asBoolean()).containsExactly(false, false);
            assertThat(refused.getFirst().path("error").asText()).contains("conversation");
            assertThat(second.getLast().event()).isEqualTo("done");
            assertThat(t.api.get("/v1/tasks", token).body().path("tasks"))
                    .extracting(n -> n.path("title").asText())
                    .containsExactlyInAnyOrder("one", "two");
        }
    }

    @Test
    void a_tool_loop_stopped_by_the_iteration_limit_says_so_in_done_and_in_the_json_answer() {
        TurnLimits twoSteps = new TurnLimits(
                2, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));
        // the model never stops asking for tools
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays("loop", Reply.toolCall("list_tasks", "{}"))
                .whenToolResult("list_tasks", Reply.toolCall("list_tasks", "{}"))
                .whenUserSays("hello", Reply.text("Hello."))
                .build();
        try (LlmSimulator sim = LlmSimulator.start(script);
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), twoSteps, sim, false)) {
            String token = TestServer.token("looper");
            String session = t.api.startSession(token, "tasks");

            List<SseEvent> events;
            try (var s = t.api.stream(session, token, "loop")) {
                events = s.all();
            }
            SseEvent done = events.getLast();
            assertThat(done.event()).isEqualTo("done");
            assertThat(done.data().path("stopReason").asText()).isEqualTo("max_iterations");
            assertThat(String.join(
                            "",
                            events.stream()
                                    .filter(e -> e.event().equals("chunk"))
                                    .map(e -> e.data().path("content").asText())
                                    .toList()))
                    .contains("I wasn't able to finish this within 2 steps");

            var json = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"loop\"}");
            assertThat(json.status()).isEqualTo(200);
            assertThat(json.body().path("stopReason").asText()).isEqualTo("max_iterations");

            try (var s = t.api.stream(session, token, "hello")) {
                assertThat(s.all().getLast().data().path("stopReason").asText()).isEqualTo("completed");
            }
        }
    }
}
