package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the model is sent as history, and what survives a restart. */
class HistoryAndRestartIT {

    @TempDir
    Path dir;

    @Test
    void history_sent_to_the_model_is_capped_by_tokens_newest_first() {
        TurnLimits small = new TurnLimits(
                5, 10, 50, 20, 120, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));
        try (LlmSimulator sim = LlmSimulator.start(SimulatorScript.replyingWith("noted"));
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), small, sim, false)) {
            String token = TestServer.token("historian");
            String session = t.api.startSession(token, "tasks");
            for (int i = 1; i <= 8; i++) {
                String msg = "message number " + i + " " + "padding words to use up tokens ".repeat(4);
                assertThat(t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"" + msg + "\"}")
                                .status())
                        .isEqualTo(200);
            }
            RecordedRequest last = sim.requests().getLast();
            var userTexts = last.messages().stream()
                    .filter(m -> m.path("role").asText().equals("user"))
                    .map(m -> m.path("content").asText())
                    .toList();
            // the current message is always there; older ones only while 120 tokens last
            assertThat(userTexts.getLast()).startsWith("message number 8 ");
            assertThat(userTexts.size()).isLessThan(8).isGreaterThan(1);
            assertThat(userTexts).noneMatch(s -> s.startsWith("message number 1 "));
            // what is kept is the most recent history, in chronological order
            assertThat(userTexts.get(userTexts.size() - 2)).startsWith("message number 7 ");
            assertThat(last.messages().getFirst().path("role").asText()).isEqualTo("system");
        }
    }

    @Test
    void the_system_prompt_has_the_agents_behaviour_and_the_current_date() {
        try (LlmSimulator sim = LlmSimulator.start(SimulatorScript.replyingWith("hi"));
                TestServer t = TestServer.start(TestServer.sqliteUrl(dir), TurnLimits.DEFAULTS, sim, false)) {
            String token = TestServer.token("prompted");
            String session = t.api.startSession(token, "tasks");
            t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}");
            JsonNode system = sim.requests().getLast().messages().getFirst();
            String prompt = system.path("content").asText();
            assertThat(prompt).contains("## Core Behavior");
            assertThat(prompt)
                    .contains(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
            assertThat(sim.requests().getLast().toolNames())
                    .contains(
                            "add_task",
                            "list_tasks",
                            "complete_task",
                            "update_task",
                            "delete_task",
                            "get_current_time");
        }
    }

    @Test
    void data_survives_a_server_restart() {
        String token = TestServer.token("persistent");
        String session;
        try (TestServer t = TestServer.start(dir, SimulatorScript.replyingWith("remembered"))) {
            session = t.api.startSession(token, "tasks");
            assertThat(t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"keep this\"}")
                            .status())
                    .isEqualTo(200);
            assertThat(t.api.post("/v1/tasks", token, "{\"title\":\"durable\"}").status())
                    .isEqualTo(201);
        }
        try (TestServer t = TestServer.start(dir, SimulatorScript.replyingWith("again"))) {
            JsonNode messages = t.api.get("/v1/sessions/" + session + "/messages", token)
                    .body()
                    .path("messages");
            assertThat(messages).extracting(m -> m.path("content").asText()).containsExactly("keep this", "remembered");
            assertThat(t.api.get("/v1/tasks", token).body().path("tasks"))
                    .extracting(n -> n.path("title").asText())
                    .containsExactly("durable");
            // resume: the newest active session comes first
            JsonNode listed = t.api.get("/v1/sessions?agentId=tasks&state=active", token)
                    .body()
                    .path("sessions");
            assertThat(listed.get(0).path("id").asText()).isEqualTo(session);
        }
    }
}
