package dev.baton.providers.anthropic;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.model.ToolSpec;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.anthropic.AnthropicChatRequestParameters;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates a core {@link ModelRequest} into a LangChain4j {@link ChatRequest} for the Anthropic model.
 * LangChain4j puts the system message into the top-level {@code system} field, assistant tool calls into
 * {@code tool_use} blocks and tool results into {@code tool_result} blocks of a user turn.
 *
 * <p>Tools bypass LangChain4j's typed schema for the same reason as in the OpenAI adapter: its
 * {@code JsonObjectSchema} loses keywords ({@code additionalProperties: false} on the root, {@code format},
 * {@code pattern}, bounds). {@link #toolsOf} builds Anthropic's {@code tools} array ({@code name},
 * {@code description}, {@code input_schema}) from the original schema nodes, and the gateway sends it as a
 * custom parameter of the per-call model.
 */
final class AnthropicRequestMapper {

    private AnthropicRequestMapper() {}

    static ChatRequest toChatRequest(ModelRequest request, int maxTokens) {
        var parameters = AnthropicChatRequestParameters.builder()
                .modelName(request.model())
                .maxOutputTokens(maxTokens)
                .build();
        return ChatRequest.builder()
                .messages(messagesOf(request.messages()))
                .parameters(parameters)
                .build();
    }

    static List<dev.langchain4j.data.message.ChatMessage> messagesOf(List<ChatMessage> messages) {
        var mapped = new ArrayList<dev.langchain4j.data.message.ChatMessage>(messages.size());
        for (var message : messages) {
            switch (message) {
                case ChatMessage.System s -> {
                    // LangChain4j rejects blank system text, and an empty system prompt tells the model nothing
                    if (!s.content().isBlank()) {
                        mapped.add(SystemMessage.from(s.content()));
                    }
                }
                case ChatMessage.User u -> mapped.add(UserMessage.from(u.content()));
                case ChatMessage.Assistant a -> mapped.add(assistant(a));
                case ChatMessage.ToolResult r ->
                    mapped.add(ToolExecutionResultMessage.from(r.toolCallId(), r.toolName(), r.content()));
            }
        }
        return mapped;
    }

    /** Anthropic's {@code tools} array, each schema exactly as the tool declared it. */
    static List<Map<String, Object>> toolsOf(List<ToolSpec> tools) {
        var mapped = new ArrayList<Map<String, Object>>(tools.size());
        for (var tool : tools) {
            var entry = new LinkedHashMap<String, Object>();
            entry.put("name", tool.name());
            entry.put("description", tool.description());
            entry.put("input_schema", tool.parametersSchema());
            mapped.add(entry);
        }
        return mapped;
    }

    private static AiMessage assistant(ChatMessage.Assistant message) {
        if (message.toolCalls().isEmpty()) {
            return AiMessage.from(message.text());
        }
        var requests = message.toolCalls().stream()
                .map(AnthropicRequestMapper::toolExecution)
                .toList();
        return AiMessage.builder()
                .text(message.text().isEmpty() ? null : message.text())
                .toolExecutionRequests(requests)
                .build();
    }

    private static ToolExecutionRequest toolExecution(ToolCallRequest call) {
        return ToolExecutionRequest.builder()
                .id(call.id())
                .name(call.name())
                .arguments(call.argumentsJson())
                .build();
    }
}
