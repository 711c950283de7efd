package dev.baton.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelFailure.Kind;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What every {@link ModelGateway} must do, checked over real HTTP against the LLM simulator. A provider's
 * suite extends this class and says how to build its gateway on a simulator; provider-specific wire
 * assertions belong in the subclass. baton-providers runs it on its OpenAI, Anthropic, Ollama and Azure gateways;
 * a gateway of one's own whose wire the simulator speaks runs it the same way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ModelGatewayContract {

    protected static final ObjectMapper JSON = new ObjectMapper();
    protected static final Duration GENEROUS = Duration.ofSeconds(20);
    /** How soon a cancelled or timed-out call must return. */
    protected static final Duration PROMPTLY = Duration.ofSeconds(3);

    private LlmSimulator simulator;
    private ModelGateway gateway;

    /** A gateway talking to {@code simulator}, in the wire protocol the simulator speaks for this provider. */
    protected abstract ModelGateway gatewayOn(LlmSimulator simulator);

    /** Releases what {@link #gatewayOn} created. */
    protected void release(ModelGateway gateway) throws Exception {
        if (gateway instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    protected final LlmSimulator simulator() {
        return simulator;
    }

    /**
     * Whether the provider streams a tool call's arguments in pieces; one whose wire sends each call whole (Ollama)
     * says false, and its tool-call delta then arrives just before the end of the stream.
     */
    protected boolean streamsToolArguments() {
        return true;
    }

    /** Whether the provider's wire reports prompt-cache reads; Ollama's does not. */
    protected boolean reportsCachedTokens() {
        return true;
    }

    protected final ModelGateway start(SimulatorScript script) {
        simulator = LlmSimulator.start(script);
        gateway = gatewayOn(simulator);
        return gateway;
    }

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            release(gateway);
        }
        if (simulator != null) {
            simulator.close();
        }
    }

    protected static ModelRequest ask(String userText) {
        return ask(userText, List.of(), new Cancellation(), GENEROUS);
    }

    protected static ModelRequest ask(
            String userText, List<ToolSpec> tools, Cancellation cancellation, Duration timeout) {
        return new ModelRequest(
                "test-model",
                List.of(new ChatMessage.System("You are terse."), new ChatMessage.User(userText)),
                tools,
                timeout,
                cancellation);
    }

    /** Starts a simulator that answers a weather tool result with {@code "It is sunny in Oslo."}. */
    protected final ModelGateway startAnsweringWeatherResults() {
        return start(SimulatorScript.builder()
                .whenToolResult("get_weather", Reply.text("It is sunny in Oslo."))
                .build());
    }

    /**
     * A conversation whose assistant turn called {@code get_weather} for Oslo as {@code callId} and whose last
     * message is that call's result, {@code {"sky":"clear"}}.
     */
    protected static ModelRequest weatherToolRoundTrip(String model, String assistantText, String callId) {
        return new ModelRequest(
                model,
                List.of(
                        new ChatMessage.System("You report weather."),
                        new ChatMessage.User("Weather in Oslo?"),
                        new ChatMessage.Assistant(
                                assistantText,
                                List.of(new ToolCallRequest(callId, "get_weather", "{\"city\":\"Oslo\"}"))),
                        new ChatMessage.ToolResult(callId, "get_weather", "{\"sky\":\"clear\"}")),
                List.of(weatherTool()),
                GENEROUS,
                new Cancellation());
    }

    protected static ToolSpec weatherTool() {
        try {
            return new ToolSpec("get_weather", "Current weather for a city", JSON.readTree("""
                    {"type":"object","properties":{"city":{"type":"string"}},"required":["city"],
                     "additionalProperties":false}"""));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

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

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "500, UNAVAILABLE",
        "502, UNAVAILABLE",
        "503, UNAVAILABLE",
        "504, UNAVAILABLE",
        "529, UNAVAILABLE",
        "401, AUTHENTICATION",
        "403, AUTHENTICATION",
        "400, BAD_REQUEST",
        "404, BAD_REQUEST",
        "413, BAD_REQUEST",
        "422, BAD_REQUEST"
    })
    void an_error_status_maps_to_its_failure_kind(int status, Kind expected) {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(new Fault.HttpError(status, "simulated", null, "simulated " + status));

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure).isNotNull();
        assertThat(failure.kind()).isEqualTo(expected);
        assertThat(failure.retryAfter()).isNull();
    }

    @Test
    void a_429_is_rate_limited_and_carries_retry_after() {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(Fault.rateLimited(7));

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void a_stream_dropped_before_completion_is_unavailable_after_the_partial_deltas() {
        var gateway = start(SimulatorScript.replyingWith("one two three four five six seven eight"));
        simulator().enqueueFault(Fault.disconnectAfter(2));
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), deltas::add));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(deltas).hasSize(2);
    }

    @Test
    void an_error_reported_mid_stream_is_unavailable_after_the_partial_deltas() {
        var gateway = start(SimulatorScript.replyingWith("one two three four five six seven eight"));
        simulator().enqueueFault(new Fault.StreamError(2, "api_error", "simulated mid-stream failure"));
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), deltas::add));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(deltas).hasSize(2);
    }

    @Test
    void a_malformed_chunk_is_unavailable() {
        var gateway = start(SimulatorScript.replyingWith("one two three four five six"));
        simulator().enqueueFault(Fault.malformedChunk(1));

        var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));

        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
    }

    @Test
    void a_refused_connection_is_unavailable() {
        var closed = LlmSimulator.start(SimulatorScript.replyingWith("gone"));
        closed.close();
        var gateway = gatewayOn(closed);
        try {
            var failure = catchThrowableOfType(ModelFailure.class, () -> gateway.stream(ask("hi"), d -> {}));
            assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        } finally {
            try {
                release(gateway);
            } catch (Exception ignored) {
                // nothing to release on a gateway that never connected
            }
        }
    }

    @Test
    void cancelling_while_the_provider_hangs_returns_promptly_and_closes_the_connection() throws Exception {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(Fault.hang());
        var cancellation = new Cancellation();

        try (var canceller = Executors.newVirtualThreadPerTaskExecutor()) {
            canceller.submit(() -> {
                simulator().awaitRequest(0, GENEROUS);
                cancellation.cancel();
                return null;
            });
            long started = System.nanoTime();
            var failure = catchThrowableOfType(
                    ModelFailure.class, () -> gateway.stream(ask("hi", List.of(), cancellation, GENEROUS), d -> {}));

            assertThat(failure.kind()).isEqualTo(Kind.CANCELLED);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(PROMPTLY.plusSeconds(2));
        }
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void cancelling_mid_stream_returns_promptly_after_some_deltas_and_closes_the_connection() throws Exception {
        var longText = String.join(" ", Collections.nCopies(400, "word"));
        var gateway = start(
                SimulatorScript.builder().tokensPerSecond(50).fallback(longText).build());
        var cancellation = new Cancellation();
        var threeDeltas = new CountDownLatch(3);
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        try (var canceller = Executors.newVirtualThreadPerTaskExecutor()) {
            canceller.submit(() -> {
                threeDeltas.await();
                cancellation.cancel();
                return null;
            });
            var failure = catchThrowableOfType(
                    ModelFailure.class,
                    () -> gateway.stream(ask("hi", List.of(), cancellation, GENEROUS), delta -> {
                        deltas.add(delta);
                        threeDeltas.countDown();
                    }));
            long cancelledAt = System.nanoTime();

            assertThat(failure.kind()).isEqualTo(Kind.CANCELLED);
            assertThat(deltas).hasSizeGreaterThanOrEqualTo(3).hasSizeLessThan(400);
            assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isLessThan(PROMPTLY);
        }
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void a_call_that_outlives_its_timeout_fails_with_timeout_and_closes_the_connection() {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        simulator().enqueueFault(Fault.hang());
        var timeout = Duration.ofMillis(700);

        long started = System.nanoTime();
        var failure = catchThrowableOfType(
                ModelFailure.class, () -> gateway.stream(ask("hi", List.of(), new Cancellation(), timeout), d -> {}));
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(failure.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(elapsed).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plus(PROMPTLY));
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void an_already_cancelled_request_fails_without_calling_the_provider() {
        var gateway = start(SimulatorScript.replyingWith("never sent"));
        var cancellation = new Cancellation();
        cancellation.cancel();

        assertThatThrownBy(() -> gateway.stream(ask("hi", List.of(), cancellation, GENEROUS), d -> {}))
                .isInstanceOfSatisfying(
                        ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(Kind.CANCELLED));
        assertThat(simulator().requests()).isEmpty();
    }

    @Test
    void an_exception_from_the_delta_consumer_propagates_and_closes_the_connection() {
        var longText = String.join(" ", Collections.nCopies(400, "word"));
        var gateway = start(
                SimulatorScript.builder().tokensPerSecond(50).fallback(longText).build());
        var consumerFailure = new IllegalStateException("the client went away");

        assertThatThrownBy(() -> gateway.stream(ask("hi"), delta -> {
                    throw consumerFailure;
                }))
                .isSameAs(consumerFailure);
        assertThat(simulator().awaitClientDisconnect(PROMPTLY)).isTrue();
    }

    @Test
    void concurrent_calls_on_one_gateway_each_get_their_own_answer() throws Exception {
        var gateway = start(SimulatorScript.builder()
                .whenUserMatches("echo (\\w+)", Reply.text("you said $1"))
                .build());
        try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
            var answers = new ArrayList<Future<String>>();
            for (int i = 0; i < 8; i++) {
                var word = "w" + i;
                answers.add(callers.submit(
                        () -> gateway.stream(ask("echo " + word), d -> {}).text()));
            }
            for (int i = 0; i < answers.size(); i++) {
                assertThat(answers.get(i).get(30, TimeUnit.SECONDS)).isEqualTo("you said w" + i);
            }
        }
    }

    @Test
    void the_gateway_serves_the_next_call_after_a_cancelled_one() {
        var gateway = start(SimulatorScript.replyingWith("fresh answer"));
        simulator().enqueueFault(Fault.hang());
        var timeout = Duration.ofMillis(300);
        catchThrowableOfType(
                ModelFailure.class, () -> gateway.stream(ask("hi", List.of(), new Cancellation(), timeout), d -> {}));

        var reply = gateway.stream(ask("again"), d -> {});

        assertThat(reply.text()).isEqualTo("fresh answer");
    }
}
