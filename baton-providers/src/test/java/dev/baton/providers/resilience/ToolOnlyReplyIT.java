package dev.baton.providers.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.turn.Cancellation;
import dev.baton.providers.anthropic.AnthropicConfig;
import dev.baton.providers.azure.AzureOpenAiConfig;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Replies that only call tools, through the resilient gateway of each provider whose wire streams tool arguments
 * (OpenAI's Chat Completions, also behind Azure, and Anthropic's Messages): the pieces of a tool call are the
 * first token, and they are not the client's answer.
 */
class ToolOnlyReplyIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration FIRST_TOKEN = ResilientModelGatewayIT.FIRST_TOKEN;
    /** About 100 argument pieces of one token each; at 100 tokens a second they take about a second. */
    static final String ARGUMENTS = "{\"city\":\"Reykjavik\",\"note\":\""
            + "a rather long note ".repeat(20).strip() + "\"}";

    final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    LlmSimulator simulator;
    ConfiguredModelResolver configured;
    ResilientModelResolver resolver;

    ModelBinding start(String reference, SimulatorScript script) {
        simulator = LlmSimulator.start(script);
        configured = ConfiguredModelResolver.builder()
                .simulator(simulator.baseUrl())
                .anthropic(new AnthropicConfig(
                        "anthropic", simulator.baseUrl(), "sk-ant-test", null, 1024, null, Map.of()))
                .azure(new AzureOpenAiConfig(
                        simulator.rootUrl(), "az-test-key", "2024-10-21", null, Duration.ofSeconds(60)))
                .build();
        resolver = new ResilientModelResolver(
                configured, ResilientModelGatewayIT.SETTINGS, new SettableClock(), sleeps::add, () -> 0.5);
        return resolver.resolve(reference);
    }

    @AfterEach
    void stop() {
        if (resolver != null) {
            resolver.close();
        }
        if (simulator != null) {
            simulator.close();
        }
    }

    static ModelRequest askForWeather(ModelBinding binding) {
        try {
            var tool = new ToolSpec(
                    "get_weather",
                    "Current weather for a city",
                    JSON.readTree("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"));
            return new ModelRequest(
                    binding.model(),
                    List.of(new ChatMessage.User("weather in Reykjavik?")),
                    List.of(tool),
                    Duration.ofSeconds(10),
                    new Cancellation());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator:default", "anthropic:claude-test", "azure:gpt4o-test"})
    void a_tool_call_streaming_past_the_first_token_limit_completes_without_a_timeout_retry(String reference)
            throws Exception {
        var binding = start(
                reference,
                SimulatorScript.builder()
                        .always(Reply.toolCall("get_weather", ARGUMENTS))
                        .tokensPerSecond(100)
                        .build());
        var deltas = new CopyOnWriteArrayList<ModelDelta>();
        var firstToolDeltaAfter = new AtomicLong(-1);

        long started = System.nanoTime();
        ModelReply reply = binding.gateway().stream(askForWeather(binding), delta -> {
            if (delta instanceof ModelDelta.ToolCallDelta) {
                firstToolDeltaAfter.compareAndSet(-1, System.nanoTime() - started);
            }
            deltas.add(delta);
        });
        var took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took)
                .as("the reply took longer than the first-token limit and its longer retry together")
                .isGreaterThan(FIRST_TOKEN.multipliedBy(2));
        assertThat(Duration.ofNanos(firstToolDeltaAfter.get()))
                .as("the first piece of the call met the first-token limit")
                .isLessThan(FIRST_TOKEN);
        assertThat(simulator.requests()).as("no retry").hasSize(1);
        assertThat(sleeps).isEmpty();
        assertThat(reply.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("get_weather");
            assertThat(JSON.readTree(call.argumentsJson())).isEqualTo(JSON.readTree(ARGUMENTS));
        });
        assertThat(deltas).hasSizeGreaterThan(10).allMatch(ModelDelta.ToolCallDelta.class::isInstance);
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator:default", "anthropic:claude-test"})
    void a_stream_broken_while_writing_a_tool_call_is_retried_because_the_client_saw_nothing(String reference) {
        var binding = start(
                reference,
                SimulatorScript.builder()
                        .always(Reply.toolCall("get_weather", ARGUMENTS))
                        .build());
        simulator.enqueueFault(Fault.disconnectAfter(5));
        var deltas = new CopyOnWriteArrayList<ModelDelta>();

        ModelReply reply = binding.gateway().stream(askForWeather(binding), deltas::add);

        assertThat(simulator.requests()).as("the broken attempt and its retry").hasSize(2);
        assertThat(sleeps).as("retried after the plain retry delay").containsExactly(Duration.ofSeconds(2));
        // the call's first chunk names it, the next four carry 4 characters of arguments each; then the stream broke
        assertThat(deltas).allMatch(ModelDelta.ToolCallDelta.class::isInstance);
        assertThat(deltas.stream()
                        .map(d -> ((ModelDelta.ToolCallDelta) d).argumentsFragment())
                        .reduce("", String::concat))
                .as("the abandoned attempt's pieces, then the whole retried call")
                .isEqualTo(ARGUMENTS.substring(0, 16) + ARGUMENTS);
        assertThat(reply.toolCalls())
                .singleElement()
                .satisfies(
                        call -> assertThat(JSON.readTree(call.argumentsJson())).isEqualTo(JSON.readTree(ARGUMENTS)));
    }
}
