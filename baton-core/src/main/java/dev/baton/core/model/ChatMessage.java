package dev.baton.core.model;

import java.util.List;
import java.util.Objects;

/** A message as sent to a model: the provider-neutral shape every {@link ModelGateway} translates. */
public sealed interface ChatMessage {

    record System(String content) implements ChatMessage {
        public System {
            Objects.requireNonNull(content, "content");
        }
    }

    record User(String content) implements ChatMessage {
        public User {
            Objects.requireNonNull(content, "content");
        }
    }

    /** An assistant message; {@code text} may be empty when the model only called tools. */
    record Assistant(String text, List<ToolCallRequest> toolCalls) implements ChatMessage {
        public Assistant {
            text = text == null ? "" : text;
            toolCalls = List.copyOf(toolCalls == null ? List.of() : toolCalls);
        }
    }

    /** The result of one tool call, fed back to the model. {@code content} is JSON text. */
    record ToolResult(String toolCallId, String toolName, String content) implements ChatMessage {
        public ToolResult {
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(content, "content");
        }
    }
}
