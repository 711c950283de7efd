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
 */
public record ModelRequest(
        String model, List<ChatMessage> messages, List<ToolSpec> tools, Duration timeout, Cancellation cancellation) {
    public ModelRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(cancellation, "cancellation");
    }
}
