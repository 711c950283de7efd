package dev.baton.core.model;

import dev.baton.core.turn.Cancellation;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One call to a model.
 *
 * @param model the model name within the gateway's provider (for "openai:gpt-4o-mini", "gpt-4o-mini")
 * @param timeout the limit for the whole call
 * @param cancellation cancelling it must abort the underlying HTTP request
 * @param temperature the sampling temperature (0–2) sent to the provider; null leaves the provider's default
 */
public record ModelRequest(
        String model,
        List<ChatMessage> messages,
        List<ToolSpec> tools,
        Duration timeout,
        Cancellation cancellation,
        Double temperature) {
    /** The highest temperature any supported provider accepts. */
    public static final double MAX_TEMPERATURE = 2.0;

    public ModelRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(cancellation, "cancellation");
        if (temperature != null && !(temperature >= 0 && temperature <= MAX_TEMPERATURE))
            throw new IllegalArgumentException("temperature must be 0-2, got " + temperature);
    }

    /** A call at the provider's default temperature. */
    public ModelRequest(
            String model,
            List<ChatMessage> messages,
            List<ToolSpec> tools,
            Duration timeout,
            Cancellation cancellation) {
        this(model, messages, tools, timeout, cancellation, null);
    }

    /** This call with another timeout and cancellation (a retry or a fallback attempt of it). */
    public ModelRequest attempt(String attemptModel, Duration attemptTimeout, Cancellation attemptCancellation) {
        return new ModelRequest(attemptModel, messages, tools, attemptTimeout, attemptCancellation, temperature);
    }
}
