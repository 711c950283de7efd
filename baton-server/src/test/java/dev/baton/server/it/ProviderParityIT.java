package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.simulator.WireProtocol;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same scripted conversation through OpenAI's and Anthropic's wires: the simulator stands in for both
 * providers, configured as a user configures them (models.openai and models.anthropic pointing at its base
 * URL), and the client sees the same Baton events whichever model the agent uses.
 */
class ProviderParityIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STORY = "Once upon a time " + "the story went on and on ".repeat(60);

    @TempDir
    static Path dir;

    static LlmSimulator provider;
    static TestServer openAi;
    static TestServer anthropic;

    @BeforeAll
    static void start() {
        provider = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays("add milk", Reply.toolCall("add_task", "{\"title\":\"milk\",\"priority\":\"high\"}"))
                .whenToolResult("add_task", Reply.text("Done: milk is on your list with high priority."))
                .rule(Rule.when(new Condition.UserContains("story"), Reply.text(STORY))
                        .withPacing(new Pacing(Duration.ZERO, 40, 1)))
                .build());
        openAi = server("openai:gpt-test", "openai");
        anthropic = server("anthropic:claude-test", "anthropic");
    }

    @AfterAll
    static void stop() {
        if (openAi != null) openAi.close();
        if (anthropic != null) anthropic.close();
        provider.close();
    }

    /** Both providers configured at the simulator; the agents' default model decides which one answers. */
    private static TestServer server(String defaultModel, String name) {
        var raw = JSON.createObjectNode();
        var models = raw.putObject("models");
        models.put("default", defaultModel);
        models.putObject("anthropic").put("apiKey", "sk-ant-parity").put("baseUrl", provider.baseUrl());
        var config = new BatonConfig(
                0,
                TestServer.sqliteUrl(dir.resolve(name)),
                TestServer.SECRET,
                new ModelSettings(defaultModel, "sk-openai-parity", provider.baseUrl(), Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of());
        dir.resolve(name).toFile().mkdirs();
        return TestServer.start(config, provider, false, Clock.systemUTC());
    }

    /** What a client sees of a turn, without ids, timings and the model's name. */
    private static List<String> shape(List<SseEvent> events) {
        var shape = new ArrayList<String>();
        for (var e : events) {
            JsonNode d = e.data();
            shape.add(
                    switch (e.type()) {
                        case "tool_call" -> "tool_call " + d.path("name").asText() + " " + d.path("arguments");
                        case "tool_result" ->
                            "tool_result " + d.path("name").asText() + " ok="
                                    + d.path("ok").asBoolean();
                        case "chunk" -> "chunk " + d.path("content").asText();
                        default -> e.type();
                    });
        }
        return shape;
    }

    private static List<SseEvent> converse(TestServer t, String user) {
        String token = TestServer.token(user);
        String session = t.api.startSession(token, "tasks");
        try (var stream = t.api.stream(session, token, "please add milk to my tasks")) {
            assertThat(stream.status).isEqualTo(200);
            return stream.all();
        }
    }

    @org.junit.jupiter.api.Test
    void a_tool_call_its_result_and_the_answer_look_the_same_through_openai_and_anthropic() {
        provider.clearRequests();
        var viaOpenAi = converse(openAi, "parity-openai");
        var openAiRequests = provider.requests();
        provider.clearRequests();
        var viaAnthropic = converse(anthropic, "parity-anthropic");
        var anthropicRequests = provider.requests();

        assertThat(openAiRequests).allSatisfy(r -> assertThat(r.protocol()).isEqualTo(WireProtocol.OPENAI_CHAT));
        assertThat(anthropicRequests)
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.protocol()).isEqualTo(WireProtocol.ANTHROPIC_MESSAGES));
        assertThat(anthropicRequests.getFirst().header("x-api-key")).contains("sk-ant-parity");
        assertThat(anthropicRequests.getFirst().model()).isEqualTo("claude-test");
        assertThat(anthropicRequests.get(1).lastToolResult())
                .hasValueSatisfying(r -> assertThat(r.toolName()).isEqualTo("add_task"));

        assertThat(shape(viaAnthropic)).isEqualTo(shape(viaOpenAi));
        assertThat(shape(viaOpenAi))
                .startsWith("turn.started")
                .contains(
                        "tool_call add_task {\"title\":\"milk\",\"priority\":\"high\"}", "tool_result add_task ok=true")
                .endsWith("done");
        var text = new StringBuilder();
        viaAnthropic.stream()
                .filter(e -> e.type().equals("chunk"))
                .forEach(e -> text.append(e.data().path("content").asText()));
        assertThat(text.toString()).isEqualTo("Done: milk is on your list with high priority.");
        assertThat(viaAnthropic.getLast().data().path("model").asText()).isEqualTo("claude-test");
        assertThat(viaOpenAi.getLast().data().path("model").asText()).isEqualTo("gpt-test");
        assertThat(viaAnthropic
                        .getLast()
                        .data()
                        .path("usage")
                        .path("outputTokens")
                        .asLong())
                .isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai", "anthropic"})
    void cancelling_a_turn_closes_the_provider_connection(String which) {
        TestServer t = which.equals("openai") ? openAi : anthropic;
        String token = TestServer.token("canceller-" + which);
        String session = t.api.startSession(token, "tasks");
        int disconnectsBefore = provider.clientDisconnects();
        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "tell me a story")) {
            events = new ArrayList<>(stream.until(e -> e.event().equals("chunk")));
            var cancel = t.api.post("/v1/sessions/" + session + "/cancel", token, "{}");
            assertThat(cancel.body().path("cancelled").asBoolean()).isTrue();
            events.addAll(stream.all());
        }

        assertThat(events.getLast().type()).isEqualTo("error");
        assertThat(events.getLast().data().path("code").asText()).isEqualTo("cancelled");
        assertThat(provider.awaitClientDisconnects(disconnectsBefore + 1, Duration.ofSeconds(10)))
                .isTrue();
    }
}
