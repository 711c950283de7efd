package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agents come in the configuration's order everywhere, and a one-shot chat without {@code agentId} goes to the
 * configured default agent, which must be one the caller may use; without one, to the first agent the caller may use.
 */
class DefaultAgentIT {
    @TempDir
    Path dir;

    private static List<String> ids(JsonNode agents) {
        List<String> ids = new ArrayList<>();
        agents.path("agents").forEach(a -> ids.add(a.path("id").asText()));
        return ids;
    }

    private static String agentOfChat(TestServer t, String token) {
        ApiClient.Response chat = t.api.post("/v1/chat", token, "{\"message\":\"what time is it\"}");
        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        String conversation = chat.body().path("conversationId").asText();
        return t.api.get("/v1/sessions/" + conversation, token)
                .body()
                .path("agentId")
                .asText();
    }

    @Test
    void agents_are_listed_in_configuration_order_and_chat_without_an_agent_uses_the_first() {
        try (LlmSimulator sim = LlmSimulator.start(TaskAgentScript.create());
                TestServer t = TestServer.startWithAgents(
                        dir,
                        sim,
                        Map.of(
                                "a-zeta", "id: zeta\nsystemPrompt: Z\n",
                                "b-alpha", "id: alpha\nsystemPrompt: A\n",
                                "c-mid", "id: mid\nsystemPrompt: M\n"))) {
            String token = TestServer.token("ord");

            assertThat(ids(t.api.get("/v1/agents", token).body()))
                    .containsExactly("tasks", "study", "learning", "learning-platform", "zeta", "alpha", "mid");
            assertThat(agentOfChat(t, token)).isEqualTo("tasks");
        }
    }

    @Test
    void a_configured_default_agent_answers_chat_and_a_caller_who_may_not_use_it_is_403() throws Exception {
        Path agents = Files.createDirectories(dir.resolve("agents"));
        Files.writeString(agents.resolve("tutor.yaml"), "id: tutor\nsystemPrompt: T\nroles: [student]\n");
        BatonConfig config = new BatonConfig(
                0,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                new ObjectMapper(new YAMLFactory()).readTree("defaultAgent: tutor"),
                Map.of());
        try (LlmSimulator sim = LlmSimulator.start(TaskAgentScript.create());
                TestServer t = TestServer.start(config, sim, false, Clock.systemUTC())) {
            assertThat(agentOfChat(t, TestServer.token("stu", "student"))).isEqualTo("tutor");

            ApiClient.Response refused =
                    t.api.post("/v1/chat", TestServer.token("vic", "viewer"), "{\"message\":\"hello\"}");

            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.body().path("error").path("message").asText()).contains("default agent 'tutor'");
        }
    }
}
