package dev.baton.providers.langchain;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.model.ToolSpec;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates the core's conversation and tools into what the adapters built on LangChain4j send. The messages
 * map the same way for every such provider; LangChain4j puts each into its provider's wire shape.
 */
public final class LangChainMessages {

    private LangChainMessages() {}

    /** The conversation in order; a blank system message is left out. */
    public static List<dev.langchain4j.data.message.ChatMessage> messagesOf(List<ChatMessage> messages) {
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

    /**
     * One tool as its provider declares it: {@code name}, {@code description} and, under {@code schemaField},
     * the parameters schema exactly as the tool gave it. LangChain4j's typed schema would lose keywords, so the
     * adapters send these as a custom parameter instead.
     */
    public static Map<String, Object> toolDeclaration(ToolSpec tool, String schemaField) {
        var declaration = new LinkedHashMap<String, Object>();
        declaration.put("name", tool.name());
        declaration.put("description", tool.description());
        declaration.put(schemaField, tool.parametersSchema());
        return declaration;
    }

    private static AiMessage assistant(ChatMessage.Assistant message) {
        if (message.toolCalls().isEmpty()) {
            return AiMessage.from(message.text());
        }
        var requests = message.toolCalls().stream()
                .map(LangChainMessages::toolExecution)
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
