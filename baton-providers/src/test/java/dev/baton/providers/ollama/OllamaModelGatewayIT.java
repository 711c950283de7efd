package dev.baton.providers.ollama;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.simulator.WireProtocol;
import dev.baton.testkit.model.ModelGatewayContract;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gateway contract for Ollama's native chat API, plus what it must put on the NDJSON wire. */
class OllamaModelGatewayIT extends ModelGatewayContract {

    @Override
    protected ModelGateway gatewayOn(LlmSimulator simulator) {
        return new OllamaModelGateway(
                new OllamaConfig("ollama", simulator.rootUrl(), null, Map.of("X-Baton-Test", "yes")));
    }

    /** Ollama's chat API reports no prompt cache. */
    @Override
    protected boolean reportsCachedTokens() {
        return false;
    }

    /** Ollama sends each tool call whole, in one line. */
    @Override
    protected boolean streamsToolArguments() {
        return false;
    }

    @Test
    void the_request_carries_the_conversation_with_object_arguments_and_named_tool_results() throws Exception {
        var gateway = startAnsweringWeatherResults();
        var request = weatherToolRoundTrip("llama3.1:8b", "", "call_0");

        var reply = gateway.stream(request, d -> {});

        assertThat(reply.text()).isEqualTo("It is sunny in Oslo.");
        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.protocol()).isEqualTo(WireProtocol.OLLAMA_CHAT);
        assertThat(recorded.path()).isEqualTo("/api/chat");
        assertThat(recorded.stream()).isTrue();
        assertThat(recorded.model()).isEqualTo("llama3.1:8b");
        assertThat(recorded.header("X-Baton-Test")).contains("yes");
        var wire = recorded.body().path("messages");
        assertThat(wire.path(0).path("role").asText()).isEqualTo("system");
        var call = wire.path(2).path("tool_calls").path(0).path("function");
        assertThat(call.path("name").asText()).isEqualTo("get_weather");
        assertThat(call.path("arguments")).isEqualTo(JSON.readTree("{\"city\":\"Oslo\"}"));
        assertThat(wire.path(3).path("role").asText()).isEqualTo("tool");
        assertThat(wire.path(3).path("tool_name").asText()).isEqualTo("get_weather");
        assertThat(recorded.tools().path(0).path("function").path("parameters"))
                .isEqualTo(weatherTool().parametersSchema());
    }

    @Test
    void the_reply_names_the_model_the_server_reported() {
        var gateway = start(SimulatorScript.replyingWith("ok"));

        var reply = gateway.stream(
                new ModelRequest(
                        "qwen2.5", List.of(new ChatMessage.User("hi")), List.of(), GENEROUS, new Cancellation()),
                d -> {});

        assertThat(reply.model()).isEqualTo("qwen2.5");
        assertThat(gateway.provider()).isEqualTo("ollama");
    }
}
