package dev.baton.providers.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.model.ModelGatewayContract;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gateway contract for the OpenAI adapter, plus what it must put on the Chat Completions wire. */
class OpenAiModelGatewayIT extends ModelGatewayContract {

    @Override
    protected ModelGateway gatewayOn(LlmSimulator simulator) {
        return new OpenAiModelGateway(new OpenAiCompatibleConfig(
                "simulator", simulator.baseUrl(), "test-key", null, "org-baton", Map.of("X-Baton-Test", "yes")));
    }

    @Test
    void the_request_carries_the_conversation_in_order_with_tool_calls_and_results() throws Exception {
        var gateway = startAnsweringWeatherResults();
        var request = weatherToolRoundTrip("gpt-test", "", "call_1");

        var reply = gateway.stream(request, d -> {});

        assertThat(reply.text()).isEqualTo("It is sunny in Oslo.");
        var recorded = simulator().awaitRequest(0, GENEROUS);
        var messages = recorded.messages();
        assertThat(messages)
                .extracting(m -> m.path("role").asText())
                .containsExactly("system", "user", "assistant", "tool");
        assertThat(messages.get(0).path("content").asText()).isEqualTo("You report weather.");
        assertThat(messages.get(1).path("content").asText()).isEqualTo("Weather in Oslo?");
        var call = messages.get(2).path("tool_calls").path(0);
        assertThat(call.path("id").asText()).isEqualTo("call_1");
        assertThat(call.path("type").asText()).isEqualTo("function");
        assertThat(call.path("function").path("name").asText()).isEqualTo("get_weather");
        assertThat(JSON.readTree(call.path("function").path("arguments").asText()))
                .isEqualTo(JSON.readTree("{\"city\":\"Oslo\"}"));
        assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_1");
        assertThat(messages.get(3).path("content").asText()).isEqualTo("{\"sky\":\"clear\"}");
        assertThat(recorded.model()).isEqualTo("gpt-test");
    }

    @Test
    void tool_schemas_reach_the_wire_exactly_as_given() throws Exception {
        var gateway = start(SimulatorScript.replyingWith("ok"));
        JsonNode schema = JSON.readTree("""
                {"type":"object",
                 "properties":{
                   "title":{"type":"string","minLength":1,"maxLength":200},
                   "priority":{"type":"string","enum":["low","normal","high"]},
                   "tags":{"type":"array","items":{"type":"string","pattern":"^[a-z]+$"},"maxItems":5},
                   "due":{"type":"string","format":"date-time"},
                   "estimate":{"type":"object","properties":{"hours":{"type":"number","minimum":0}},
                               "required":["hours"],"additionalProperties":false}},
                 "required":["title"],
                 "additionalProperties":false}""");
        var tools = List.of(new ToolSpec("tasks.create", "Create a task", schema), weatherTool());

        var messages = List.<ChatMessage>of(new ChatMessage.User("add a task"));
        gateway.stream(new ModelRequest("m", messages, tools, GENEROUS, new Cancellation()), d -> {});

        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.toolNames()).containsExactly("tasks.create", "get_weather");
        var first = recorded.tools().path(0);
        assertThat(first.path("type").asText()).isEqualTo("function");
        assertThat(first.path("function").path("description").asText()).isEqualTo("Create a task");
        assertThat(first.path("function").path("parameters")).isEqualTo(schema);
        assertThat(recorded.tools().path(1).path("function").path("parameters"))
                .isEqualTo(weatherTool().parametersSchema());
    }

    @Test
    void the_request_streams_asks_for_usage_and_sends_credentials_and_headers() {
        var gateway = start(SimulatorScript.replyingWith("ok"));

        gateway.stream(ask("hello"), d -> {});

        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.stream()).isTrue();
        assertThat(recorded.includeUsage()).isTrue();
        assertThat(recorded.header("Authorization")).contains("Bearer test-key");
        assertThat(recorded.header("OpenAI-Organization")).contains("org-baton");
        assertThat(recorded.header("X-Baton-Test")).contains("yes");
        assertThat(recorded.toolNames()).isEmpty();
    }

    @Test
    void the_reply_names_the_model_the_provider_reported() {
        var gateway = start(SimulatorScript.replyingWith("ok"));

        var messages = List.<ChatMessage>of(new ChatMessage.User("hi"));
        var reply = gateway.stream(
                new ModelRequest("gpt-echo", messages, List.of(), GENEROUS, new Cancellation()), d -> {});

        assertThat(reply.model())
                .isEqualTo(simulator().awaitRequest(0, GENEROUS).model());
        assertThat(gateway.provider()).isEqualTo("simulator");
    }
}
