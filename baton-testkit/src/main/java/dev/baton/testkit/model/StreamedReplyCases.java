package dev.baton.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelReply;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The {@link ModelGatewayContract}'s cases for what a gateway streams back when the call succeeds: text, tool calls,
 * token usage, and the request it sends.
 */
abstract class StreamedReplyCases extends ModelGatewayFixture {

    @Test
    void streamed_text_arrives_as_several_deltas_that_reassemble_into_the_reply() {
        var text = "The quick brown fox jumps over the lazy dog near the river bank";
        var gateway = start(SimulatorScript.replyingWith(text));
        var deltas = new CopyOnWriteArrayList<String>();

        var reply = gateway.stream(ask("tell me something"), delta -> {
            if (delta instanceof ModelDelta.Text t) {
                deltas.add(t.content());
            }
        });

        assertThat(deltas).hasSizeGreaterThan(3);
        assertThat(String.join("", deltas)).isEqualTo(text);
        assertThat(reply.text()).isEqualTo(text);
        assertThat(reply.toolCalls()).isEmpty();
        assertThat(reply.finishReason()).isEqualTo("stop");
        assertThat(reply.model()).isNotBlank();
    }

    @Test
    void the_request_goes_out_as_compact_json() throws Exception {
        // a request carries the whole tool catalogue: pretty-printing it costs CPU and bytes on every call
        var gateway = startAnsweringWeatherResults();

        gateway.stream(weatherToolRoundTrip("test-model", "Let me look.", "call_1"), d -> {});

        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.rawBody()).doesNotContain("\n").doesNotContain(": ");
        assertThat(JSON.readTree(recorded.rawBody())).isEqualTo(recorded.body());
        assertThat(recorded.toolNames()).containsExactly("get_weather");
    }

    @Test
    void a_tool_call_whose_arguments_span_many_chunks_comes_back_whole() throws Exception {
        // the simulator sends arguments in fragments of a few characters, so this spans many chunks
        var arguments = """
                {"city":"Reykjavik","units":"metric","days":[1,2,3],"note":"a fairly long note"}""";
        var gateway = start(SimulatorScript.builder()
                .whenUserSays("weather", Reply.toolCall("get_weather", arguments))
                .build());

        var request = ask("weather please", List.of(weatherTool()), new Cancellation(), GENEROUS);
        var reply = gateway.stream(request, d -> {});

        assertThat(reply.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.id()).isNotBlank();
            assertThat(call.name()).isEqualTo("get_weather");
            assertThat(JSON.readTree(call.argumentsJson())).isEqualTo(JSON.readTree(arguments));
        });
        assertThat(reply.wantsTools()).isTrue();
        assertThat(reply.finishReason()).isEqualTo("tool_calls");
    }

    @Test
    void a_tool_call_streams_as_tool_call_deltas_long_before_the_reply_is_complete() throws Exception {
        var arguments = "{\"city\":\"Reykjavik\",\"note\":\""
                + "a fairly long note ".repeat(12).strip() + "\"}";
        // about 65 argument fragments of one token each, at 100 tokens a second: well over half a second
        var gateway = start(SimulatorScript.builder()
                .whenUserSays("weather", Reply.toolCall("get_weather", arguments))
                .tokensPerSecond(100)
                .build());
        var deltas = new CopyOnWriteArrayList<ModelDelta>();
        var firstToolDeltaAt = new AtomicLong();

        var request = ask("weather please", List.of(weatherTool()), new Cancellation(), GENEROUS);
        var reply = gateway.stream(request, delta -> {
            if (delta instanceof ModelDelta.ToolCallDelta) {
                firstToolDeltaAt.compareAndSet(0, System.nanoTime());
            }
            deltas.add(delta);
        });
        var afterFirstToolDelta = Duration.ofNanos(System.nanoTime() - firstToolDeltaAt.get());

        var toolDeltas = deltas.stream()
                .filter(ModelDelta.ToolCallDelta.class::isInstance)
                .map(ModelDelta.ToolCallDelta.class::cast)
                .toList();
        assertThat(deltas)
                .as("a reply that only calls tools carries no text")
                .noneMatch(d -> d instanceof ModelDelta.Text t && !t.content().isEmpty());
        assertThat(toolDeltas)
                .isNotEmpty()
                .allSatisfy(d -> assertThat(d.index()).isZero());
        assertThat(toolDeltas)
                .extracting(ModelDelta.ToolCallDelta::name)
                .filteredOn(Objects::nonNull)
                .containsOnly("get_weather");
        var streamed = toolDeltas.stream()
                .map(ModelDelta.ToolCallDelta::argumentsFragment)
                .collect(Collectors.joining());
        assertThat(JSON.readTree(streamed)).isEqualTo(JSON.readTree(arguments));
        assertThat(reply.toolCalls())
                .singleElement()
                .satisfies(
                        call -> assertThat(JSON.readTree(call.argumentsJson())).isEqualTo(JSON.readTree(arguments)));
        if (streamsToolArguments()) {
            assertThat(toolDeltas).hasSizeGreaterThan(3);
            assertThat(afterFirstToolDelta)
                    .as("the first piece arrived while the arguments were still streaming")
                    .isGreaterThan(Duration.ofMillis(200));
        }
    }

    @Test
    void two_tool_calls_in_one_response_come_back_in_order_with_distinct_ids() throws Exception {
        var gateway = start(SimulatorScript.builder()
                .whenUserSays(
                        "compare",
                        Reply.toolCalls(
                                new Reply.ToolCall("get_weather", "{\"city\":\"Oslo\"}"),
                                new Reply.ToolCall("get_weather", "{\"city\":\"Lima\"}")))
                .build());

        var request = ask("compare Oslo and Lima", List.of(weatherTool()), new Cancellation(), GENEROUS);
        var deltas = new CopyOnWriteArrayList<ModelDelta>();
        var reply = gateway.stream(request, deltas::add);

        assertThat(deltas.stream()
                        .filter(ModelDelta.ToolCallDelta.class::isInstance)
                        .map(d -> ((ModelDelta.ToolCallDelta) d).index())
                        .distinct())
                .as("each call's pieces carry its position")
                .containsExactly(0, 1);

        assertThat(reply.toolCalls()).hasSize(2);
        assertThat(reply.toolCalls().get(0).id())
                .isNotEqualTo(reply.toolCalls().get(1).id());
        assertThat(reply.toolCalls()).allSatisfy(call -> assertThat(call.name()).isEqualTo("get_weather"));
        assertThat(reply.toolCalls())
                .extracting(
                        call -> JSON.readTree(call.argumentsJson()).path("city").asText())
                .containsExactly("Oslo", "Lima");
    }

    @Test
    void token_usage_is_reported() {
        var gateway = start(SimulatorScript.builder()
                .always(Reply.text("Counted answer").withUsage(42, 7))
                .build());

        ModelReply reply = gateway.stream(ask("count"), d -> {});

        assertThat(reply.usage().inputTokens()).isEqualTo(42);
        assertThat(reply.usage().outputTokens()).isEqualTo(7);
    }

    @Test
    void cached_prompt_tokens_are_reported_as_part_of_the_input() {
        var gateway = start(SimulatorScript.builder()
                .always(Reply.text("Counted answer").withUsage(1_000, 7, 600))
                .build());

        ModelReply reply = gateway.stream(ask("count"), d -> {});

        assertThat(reply.usage().inputTokens()).isEqualTo(1_000);
        assertThat(reply.usage().outputTokens()).isEqualTo(7);
        assertThat(reply.usage().cachedInputTokens()).isEqualTo(reportsCachedTokens() ? 600 : 0);
    }
}
