package dev.baton.core.model;

import java.util.List;

/**
 * A finished model response.
 *
 * @param model the model that actually answered, as the provider named it
 * @param finishReason the provider's reason, normalised to lower case ("stop", "tool_calls", "length", ...)
 */
public record ModelReply(
        String text, List<ToolCallRequest> toolCalls, TokenUsage usage, String model, String finishReason) {
    public ModelReply {
        text = text == null ? "" : text;
        toolCalls = List.copyOf(toolCalls == null ? List.of() : toolCalls);
        usage = usage == null ? TokenUsage.ZERO : usage;
    }

    public boolean wantsTools() {
        return !toolCalls.isEmpty();
    }
}
