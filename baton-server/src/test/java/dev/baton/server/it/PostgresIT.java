package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The same server on PostgreSQL: a tool-calling turn, and the data still there after a restart. */
class PostgresIT {

    @Test
    void a_tool_turn_runs_and_survives_a_restart_on_postgresql() {
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays("add milk", Reply.toolCall("add_task", "{\"title\":\"milk\"}"))
                .whenToolResult("add_task", Reply.text("Added."))
                .build();
        String token = TestServer.token("pg-user");
        try (Postgres pg = Postgres.freshSchema();
                LlmSimulator sim = LlmSimulator.start(script)) {
            String session;
            try (TestServer t = TestServer.start(pg.url(), TurnLimits.DEFAULTS, sim, false)) {
                session = t.api.startSession(token, "tasks");
                List<SseEvent> events;
                try (var stream = t.api.stream(session, token, "add milk")) {
                    events = stream.all();
                }
                assertThat(events).extracting(SseEvent::event).startsWith("turn.started", "tool_call", "tool_result");
                assertThat(events.getLast().event()).isEqualTo("done");
            }
            try (TestServer t = TestServer.start(pg.url(), TurnLimits.DEFAULTS, sim, false)) {
                JsonNode messages = t.api.get("/v1/sessions/" + session + "/messages", token)
                        .body()
                        .path("messages");
                assertThat(messages).extracting(m -> m.path("content").asText()).containsExactly("add milk", "Added.");
                assertThat(messages.get(1)
                                .path("toolCalls")
                                .get(0)
                                .path("state")
                                .asText())
                        .isEqualTo("succeeded");
                assertThat(t.api.get("/v1/tasks", token).body().path("tasks"))
                        .extracting(n -> n.path("title").asText())
                        .containsExactly("milk");
                assertThat(t.api.get("/v1/sessions/" + session, TestServer.token("someone-else"))
                                .status())
                        .isEqualTo(404);
            }
        }
    }
}
