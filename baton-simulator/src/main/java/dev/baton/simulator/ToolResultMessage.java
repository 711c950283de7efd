package dev.baton.simulator;

import java.util.Objects;

/**
 * A {@code role: "tool"} message of a request, with the tool's name looked up from the assistant message
 * that asked for it (the OpenAI wire format does not repeat it).
 *
 * @param toolName the called tool, or empty when no assistant message in the request carries the id
 */
public record ToolResultMessage(String toolCallId, String toolName, String content) {
    public ToolResultMessage {
        toolCallId = toolCallId == null ? "" : toolCallId;
        toolName = toolName == null ? "" : toolName;
        Objects.requireNonNull(content, "content");
    }
}
