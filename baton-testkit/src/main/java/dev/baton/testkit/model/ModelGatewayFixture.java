package dev.baton.testkit.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.turn.Cancellation;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The simulator and gateway one case of the {@link ModelGatewayContract} runs on, the provider's hooks into it, and the
 * requests the cases send. A provider's suite extends the contract, not this class.
 */
abstract class ModelGatewayFixture {

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
}
