package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.SimulatorScript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sampling temperature reaches the provider's wire: the todo design's {@code OPENAI_TEMPERATURE} for every agent
 * that sets none, an agent file's own {@code temperature} over it, and no field at all when neither is set. The
 * simulator stands in for OpenAI reached through {@code OPENAI_API_KEY} + {@code OPENAI_BASE_URL}.
 */
class ModelTemperatureIT {
    private static final String PRECISE = """
            id: precise
            systemPrompt: You answer precisely.
            temperature: 0.1
            """;

    @TempDir
    Path dir;

    @Test
    void openai_temperature_is_sent_with_every_model_call_of_an_agent_that_sets_none() throws IOException {
        try (LlmSimulator provider = LlmSimulator.start(
                        SimulatorScript.builder().fallback("Noted.").build());
                TestServer t = start(provider, Map.of("OPENAI_TEMPERATURE", "0.7"))) {
            String token = TestServer.token("tess");
            ask(t, token, "tasks");
            RecordedRequest call = provider.awaitRequest(0, Duration.ofSeconds(10));
            assertThat(call.body().path("temperature").isNumber()).isTrue();
            assertThat(call.body().path("temperature").asDouble()).isEqualTo(0.7);
        }
    }

    @Test
    void an_agent_file_temperature_wins_over_the_server_wide_one() throws IOException {
        try (LlmSimulator provider = LlmSimulator.start(
                        SimulatorScript.builder().fallback("Noted.").build());
                TestServer t = start(provider, Map.of("OPENAI_TEMPERATURE", "0.7"))) {
            ask(t, TestServer.token("pia"), "precise");
            RecordedRequest call = provider.awaitRequest(0, Duration.ofSeconds(10));
            assertThat(call.body().path("temperature").asDouble()).isEqualTo(0.1);
        }
    }

    @Test
    void without_a_temperature_the_field_is_left_to_the_provider() throws IOException {
        try (LlmSimulator provider = LlmSimulator.start(
                        SimulatorScript.builder().fallback("Noted.").build());
                TestServer t = start(provider, Map.of())) {
            ask(t, TestServer.token("nia"), "tasks");
            RecordedRequest call = provider.awaitRequest(0, Duration.ofSeconds(10));
            assertThat(call.model()).isEqualTo("gpt-4o-mini");
            assertThat(call.body().has("temperature")).isFalse();
        }
    }

    private static void ask(TestServer t, String token, String agent) {
        String session = t.api.startSession(token, agent);
        var r = t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("answer").asText()).isEqualTo("Noted.");
    }

    private TestServer start(LlmSimulator provider, Map<String, String> aliases) throws IOException {
        Path agents = Files.createDirectories(dir.resolve("agents"));
        Files.writeString(agents.resolve("precise.yaml"), PRECISE);
        Path yaml = Files.writeString(
                dir.resolve("baton.yaml"), """
                server: {port: 0}
                database: {url: "%s"}
                auth: {jwtSecret: "%s"}
                agents: {dirs: ["%s"]}
                roles:
                  student: [sessions:read:self, sessions:write:self, tasks:read:self, tasks:write:self]
                """.formatted(TestServer.sqliteUrl(dir), TestServer.SECRET, agents));
        Map<String, String> env = new java.util.HashMap<>(aliases);
        env.put("OPENAI_API_KEY", "sk-temperature");
        env.put("OPENAI_BASE_URL", provider.baseUrl());
        BatonConfig config = ConfigLoader.load(yaml, env);
        return TestServer.start(config, provider, false, Clock.systemUTC());
    }
}
