package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pointing Baton at a real provider: the simulator stands in for an OpenAI-compatible server reached through
 * OPENAI_API_KEY + OPENAI_BASE_URL, or through a named compatible endpoint, exactly as a user configures it.
 */
class ModelConfigurationIT {

    @TempDir
    Path dir;

    private static final SimulatorScript SCRIPT = SimulatorScript.builder()
            .whenUserSays("add milk", Reply.toolCall("add_task", "{\"title\":\"milk\"}"))
            .whenToolResult("add_task", Reply.text("Added."))
            .build();

    @Test
    void an_openai_key_and_base_url_drive_the_task_agent_with_the_configured_model() {
        try (LlmSimulator provider = LlmSimulator.start(SCRIPT);
                TestServer t = TestServer.start(
                        TestServer.sqliteUrl(dir),
                        TurnLimits.DEFAULTS,
                        provider,
                        false,
                        new ModelSettings("openai:gpt-4o-mini", "sk-test-key", provider.baseUrl(), Map.of()),
                        null)) {
            String token = TestServer.token("olga");
            String session = t.api.startSession(token, "tasks");
            var r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"add milk\"}");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body().path("answer").asText()).isEqualTo("Added.");
            RecordedRequest first = provider.awaitRequest(0, Duration.ofSeconds(5));
            assertThat(first.model()).isEqualTo("gpt-4o-mini");
            assertThat(first.header("authorization")).contains("Bearer sk-test-key");
            assertThat(first.stream()).isTrue();
            assertThat(t.api.get("/readyz", null)
                            .body()
                            .path("checks")
                            .path("model")
                            .asText())
                    .isEqualTo("openai:gpt-4o-mini");
        }
    }

    @Test
    void a_named_compatible_endpoint_is_reached_as_compatible_name() {
        try (LlmSimulator provider = LlmSimulator.start(SCRIPT);
                TestServer t = TestServer.start(
                        TestServer.sqliteUrl(dir),
                        TurnLimits.DEFAULTS,
                        provider,
                        false,
                        new ModelSettings(
                                "compatible:local",
                                null,
                                null,
                                Map.of(
                                        "local",
                                        new ModelSettings.CompatibleEndpoint(provider.baseUrl(), null, "llama3.1"))),
                        null)) {
            String token = TestServer.token("omar");
            String session = t.api.startSession(token, "tasks");
            assertThat(t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}")
                            .status())
                    .isEqualTo(200);
            RecordedRequest first = provider.awaitRequest(0, Duration.ofSeconds(5));
            assertThat(first.model()).isEqualTo("llama3.1");
            assertThat(first.header("authorization")).isEmpty();
        }
    }
}
