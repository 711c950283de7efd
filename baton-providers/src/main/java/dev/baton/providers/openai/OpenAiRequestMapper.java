package dev.baton.providers.openai;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.model.ToolSpec;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates a core {@link ModelRequest} into a LangChain4j {@link ChatRequest} for the OpenAI model.
 *
 * <p>Tools bypass LangChain4j's typed schema ({@code JsonObjectSchema}): in non-strict mode it drops
 * {@code additionalProperties: false} on the root object and cannot express keywords such as {@code format},
 * {@code minimum} or {@code pattern}. The tool array is instead passed as a custom request parameter holding
 * the original schema node, which Jackson writes out byte-for-byte in meaning; LangChain4j's own
 * {@code tools} field stays empty and is omitted from the body.
 */
final class OpenAiRequestMapper {

    private OpenAiRequestMapper() {}

    static ChatRequest toChatRequest(ModelRequest request) {
        var parameters = OpenAiChatRequestParameters.builder().modelName(request.model());
        if (!request.tools().isEmpty()) {
            parameters.customParameters(Map.of("tools", toolsOf(request.tools())));
        }
        return ChatRequest.builder()
                .messages(messagesOf(request.messages()))
                .parameters(parameters.build())
                .build();
    }

    static List<dev.langchain4j.data.message.ChatMessage> messagesOf(List<ChatMessage> messages) {
        var mapped = new ArrayList<dev.langchain4j.data.message.ChatMessage>(messages.size());
        for (var message : messages) {
            switch (message) {
                case ChatMessage.System s -> {
                    // LangChain4j rejects blank system text, and an empty system message tells the model nothing
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

    private static AiMessage assistant(ChatMessage.Assistant message) {
        if (message.toolCalls().isEmpty()) {
            return AiMessage.from(message.text());
        }
        var requests = message.toolCalls().stream()
                .map(OpenAiRequestMapper::toolExecution)
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

    private static List<Map<String, Object>> toolsOf(List<ToolSpec> tools) {
        var mapped = new ArrayList<Map<String, Object>>(tools.size());
        for (var tool : tools) {
            var function = new LinkedHashMap<String, Object>();
            function.put("name", tool.name());
            function.put("description", tool.description());
            function.put("parameters", tool.parametersSchema());
            mapped.add(Map.of("type", "function", "function", function));
        }
        return mapped;
    }
}
