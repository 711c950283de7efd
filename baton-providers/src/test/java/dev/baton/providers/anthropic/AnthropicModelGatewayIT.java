package dev.baton.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.simulator.WireProtocol;
import dev.baton.testkit.model.ModelGatewayContract;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The gateway contract for the Anthropic adapter, plus what it must put on the Messages wire. */
class AnthropicModelGatewayIT extends ModelGatewayContract {

    @Override
    protected ModelGateway gatewayOn(LlmSimulator simulator) {
        return new AnthropicModelGateway(new AnthropicConfig(
                "anthropic",
                simulator.baseUrl(),
                "sk-ant-test",
                null,
                1234,
                null,
                Map.of("anthropic-beta", "baton-test")));
    }

    @Test
    void the_request_carries_the_system_prompt_on_top_and_tool_use_and_tool_result_blocks() throws Exception {
        var gateway = startAnsweringWeatherResults();
        var request = weatherToolRoundTrip("claude-test", "Let me look.", "toolu_1");

        var reply = gateway.stream(request, d -> {});

        assertThat(reply.text()).isEqualTo("It is sunny in Oslo.");
        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.protocol()).isEqualTo(WireProtocol.ANTHROPIC_MESSAGES);
        assertThat(recorded.path()).isEqualTo("/v1/messages");
        var body = recorded.body();
        assertThat(body.path("system").toString()).contains("You report weather.");
        var wire = body.path("messages");
        assertThat(wire).hasSize(3);
        assertThat(wire.path(0).path("role").asText()).isEqualTo("user");
        var assistant = wire.path(1);
        assertThat(assistant.path("role").asText()).isEqualTo("assistant");
        var toolUse = assistant.path("content").path(1);
        assertThat(toolUse.path("type").asText()).isEqualTo("tool_use");
        assertThat(toolUse.path("id").asText()).isEqualTo("toolu_1");
        assertThat(toolUse.path("name").asText()).isEqualTo("get_weather");
        assertThat(toolUse.path("input")).isEqualTo(JSON.readTree("{\"city\":\"Oslo\"}"));
        var toolResult = wire.path(2).path("content").path(0);
        assertThat(wire.path(2).path("role").asText()).isEqualTo("user");
        assertThat(toolResult.path("type").asText()).isEqualTo("tool_result");
        assertThat(toolResult.path("tool_use_id").asText()).isEqualTo("toolu_1");
        assertThat(toolResult.path("content").asText()).isEqualTo("{\"sky\":\"clear\"}");
        // the same conversation through the wire-neutral helpers
        assertThat(recorded.messages())
                .extracting(m -> m.path("role").asText())
                .containsExactly("system", "user", "assistant", "tool");
        assertThat(recorded.lastToolResult())
                .hasValueSatisfying(r -> assertThat(r.toolName()).isEqualTo("get_weather"));
        assertThat(recorded.model()).isEqualTo("claude-test");
        assertThat(body.path("max_tokens").asInt()).isEqualTo(1234);
    }

    @Test
    void tool_schemas_reach_the_wire_exactly_as_given() throws Exception {
        var gateway = start(SimulatorScript.replyingWith("ok"));
        JsonNode schema = JSON.readTree("""
                {"type":"object",
                 "properties":{
                   "title":{"type":"string","minLength":1,"maxLength":200},
                   "due":{"type":"string","format":"date-time"},
                   "tags":{"type":"array","items":{"type":"string","pattern":"^[a-z]+$"}}},
                 "required":["title"],
                 "additionalProperties":false}""");
        var tools = List.of(new ToolSpec("tasks.create", "Create a task", schema), weatherTool());

        gateway.stream(
                new ModelRequest("m", List.of(new ChatMessage.User("add a task")), tools, GENEROUS, new Cancellation()),
                d -> {});

        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.toolNames()).containsExactly("tasks.create", "get_weather");
        var first = recorded.tools().path(0);
        assertThat(first.path("description").asText()).isEqualTo("Create a task");
        assertThat(first.path("input_schema")).isEqualTo(schema);
        assertThat(recorded.tools().path(1).path("input_schema"))
                .isEqualTo(weatherTool().parametersSchema());
    }

    @Test
    void the_request_streams_and_sends_the_key_version_and_headers() {
        var gateway = start(SimulatorScript.replyingWith("ok"));

        gateway.stream(ask("hello"), d -> {});

        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.stream()).isTrue();
        assertThat(recorded.header("x-api-key")).contains("sk-ant-test");
        assertThat(recorded.header("anthropic-version")).contains(AnthropicConfig.DEFAULT_VERSION);
        assertThat(recorded.header("anthropic-beta")).contains("baton-test");
        assertThat(recorded.header("Authorization")).isEmpty();
        assertThat(recorded.body().has("tools")).isFalse();
    }

    @Test
    void an_overloaded_529_is_unavailable() {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(Fault.overloaded());

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(failure.getMessage()).contains("529").contains("overloaded_error");
    }

    @Test
    void an_overloaded_error_event_mid_stream_is_unavailable_after_the_partial_deltas() {
        var gateway = start(SimulatorScript.replyingWith("one two three four five six"));
        simulator().enqueueFault(Fault.overloadedMidStream(2));
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), deltas::add));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(failure.getMessage()).contains("overloaded_error");
        assertThat(deltas).hasSize(2);
    }

    @Test
    void a_rate_limit_error_event_mid_stream_is_rate_limited() {
        var gateway = start(SimulatorScript.replyingWith("one two three"));
        simulator().enqueueFault(new Fault.StreamError(0, "rate_limit_error", "slow down"));

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
    }

    @Test
    void the_reply_names_the_model_and_maps_stop_reasons_to_the_common_vocabulary() {
        var gateway = start(SimulatorScript.builder()
                .whenUserSays("weather", Reply.toolCall("get_weather", "{\"city\":\"Oslo\"}"))
                .fallback("plain")
                .build());

        var plain = gateway.stream(
                new ModelRequest(
                        "claude-echo", List.of(new ChatMessage.User("hi")), List.of(), GENEROUS, new Cancellation()),
                d -> {});
        var tools = gateway.stream(ask("weather?", List.of(weatherTool()), new Cancellation(), GENEROUS), d -> {});

        assertThat(plain.model()).isEqualTo("claude-echo");
        assertThat(plain.finishReason()).isEqualTo("stop");
        assertThat(tools.finishReason()).isEqualTo("tool_calls");
        assertThat(tools.toolCalls().getFirst().id()).startsWith("toolu_");
        assertThat(gateway.provider()).isEqualTo("anthropic");
    }
}
