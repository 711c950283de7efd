package dev.baton.core.model;

import java.util.List;

/**
 * A finished model response.
 *
 * @param model the model that actually answered, as the provider named it
 * @param finishReason the provider's reason, normalised to lower case ("stop", "tool_calls", "length", ...)
 * @param provider the provider that answered when it is not the gateway's own (a fallback chain); null otherwise
 */
public record ModelReply(
        String text,
        List<ToolCallRequest> toolCalls,
        TokenUsage usage,
        String model,
        String finishReason,
        String provider) {

    public ModelReply {
        text = text == null ? "" : text;
        toolCalls = List.copyOf(toolCalls == null ? List.of() : toolCalls);
        usage = usage == null ? TokenUsage.ZERO : usage;
    }

    /** A reply from the gateway's own provider. */
    public ModelReply(
            String text, List<ToolCallRequest> toolCalls, TokenUsage usage, String model, String finishReason) {
        this(text, toolCalls, usage, model, finishReason, null);
    }

    /** This reply, marked as answered by {@code answeringProvider}. */
    public ModelReply answeredBy(String answeringProvider) {
        return new ModelReply(text, toolCalls, usage, model, finishReason, answeringProvider);
    }

    public boolean wantsTools() {
        return !toolCalls.isEmpty();
    }
}
