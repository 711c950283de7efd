package dev.baton.providers.anthropic;

import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.providers.langchain.LangChainMessages;
import dev.langchain4j.model.anthropic.AnthropicChatRequestParameters;
import dev.langchain4j.model.chat.request.ChatRequest;
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

    /** The highest temperature the Messages API accepts. */
    static final double MAX_TEMPERATURE = 1.0;

    private AnthropicRequestMapper() {}

    static ChatRequest toChatRequest(ModelRequest request, int maxTokens) {
        var parameters = AnthropicChatRequestParameters.builder()
                .modelName(request.model())
                .maxOutputTokens(maxTokens)
                // Anthropic's scale ends at 1: a higher setting (meant for OpenAI's 0-2) is sent as its highest
                .temperature(request.temperature() == null ? null : Math.min(request.temperature(), MAX_TEMPERATURE))
                .build();
        return ChatRequest.builder()
                .messages(LangChainMessages.messagesOf(request.messages()))
                .parameters(parameters)
                .build();
    }

    /** Anthropic's {@code tools} array, each schema exactly as the tool declared it. */
    static List<Map<String, Object>> toolsOf(List<ToolSpec> tools) {
        return tools.stream()
                .map(tool -> LangChainMessages.toolDeclaration(tool, "input_schema"))
                .toList();
    }
}
