package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.BundledScript;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The todo chatbot's own API (design 004) over real HTTP with the simulator, in that design's field names only:
 * {@code POST /api/{user_id}/chat} with {"conversation_id", "message"} → {"conversation_id", "response",
 * "tool_calls": [{"tool", "result"|"error"}], "created_at"}.
 */
class TodoChatbotApiIT {
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
    void a_message_adds_a_task_and_the_conversation_continues() {
        String token = TestServer.token("tia");

        var added = t.api.post("/api/tia/chat", token, "{\"message\":\"add a task to buy bread\"}");
        assertThat(added.status()).isEqualTo(200);
        assertThat(added.body().path("response").asText()).startsWith("Done — I've added “buy bread”");
        assertThat(added.body().at("/tool_calls/0/tool").asText()).isEqualTo("add_task");
        assertThat(added.body().at("/tool_calls/0/result/task/title").asText()).isEqualTo("buy bread");
        assertThat(added.body().path("created_at").asText()).matches("\\d{4}-\\d{2}-\\d{2}T.*Z");
        String conversation = added.body().path("conversation_id").asText();

        var listed = t.api.post(
                "/api/tia/chat", token, "{\"conversation_id\":\"" + conversation + "\",\"message\":\"list my tasks\"}");
        assertThat(listed.body().path("conversation_id").asText()).isEqualTo(conversation);
        assertThat(listed.body().path("response").asText()).contains("buy bread");
    }

    @Test
    void another_users_path_is_403_and_another_users_conversation_is_404() {
        String tia = TestServer.token("tia2");
        String conversation = t.api.post("/api/tia2/chat", tia, "{\"message\":\"list my tasks\"}")
                .body()
                .path("conversation_id")
                .asText();
        String max = TestServer.token("max");

        var wrongPath = t.api.post("/api/tia2/chat", max, "{\"message\":\"list my tasks\"}");
        assertThat(wrongPath.status()).isEqualTo(403);
        var foreign = t.api.post(
                "/api/max/chat", max, "{\"conversation_id\":\"" + conversation + "\",\"message\":\"list my tasks\"}");
        assertThat(foreign.status()).isEqualTo(404);
        var unknown =
                t.api.post("/api/max/chat", max, "{\"conversation_id\":\"no-such-conversation\",\"message\":\"hi\"}");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(foreign.body().at("/error/message").asText())
                .isEqualTo(unknown.body().at("/error/message").asText());
    }

    @Test
    void a_missing_or_too_long_message_is_400() {
        String token = TestServer.token("val");

        assertThat(t.api.post("/api/val/chat", token, "{}").status()).isEqualTo(400);
        assertThat(t.api.post("/api/val/chat", token, "{\"message\":\"" + "x".repeat(10_001) + "\"}")
                        .status())
                .isEqualTo(400);
        assertThat(t.api.post("/api/val/chat", null, "{\"message\":\"hi\"}").status())
                .isEqualTo(401);
    }

    @Test
    void a_failed_tool_call_is_listed_with_its_error() {
        t.simulator.script(SimulatorScript.builder()
                .whenUserSays("finish ghost", Reply.toolCall("complete_task", "{\"taskId\":\"ghost\"}"))
                .whenToolResult("complete_task", Reply.text("I couldn't find that task."))
                .build());
        try {
            var r = t.api.post("/api/gus/chat", TestServer.token("gus"), "{\"message\":\"finish ghost\"}");

            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body().at("/tool_calls/0/tool").asText()).isEqualTo("complete_task");
            assertThat(r.body().at("/tool_calls/0/error").asText()).contains("No task with id 'ghost'");
            assertThat(r.body().at("/tool_calls/0").has("result")).isFalse();
        } finally {
            t.simulator.script(BundledScript.create());
        }
    }
}
