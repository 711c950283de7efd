package dev.baton.providers.openai;

import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.providers.langchain.LangChainMessages;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
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
        if (request.temperature() != null) {
            parameters.temperature(request.temperature());
        }
        if (!request.tools().isEmpty()) {
            parameters.customParameters(Map.of("tools", toolsOf(request.tools())));
        }
        return ChatRequest.builder()
                .messages(LangChainMessages.messagesOf(request.messages()))
                .parameters(parameters.build())
                .build();
    }

    private static List<Map<String, Object>> toolsOf(List<ToolSpec> tools) {
        return tools.stream()
                .map(tool -> Map.<String, Object>of(
                        "type", "function", "function", LangChainMessages.toolDeclaration(tool, "parameters")))
                .toList();
    }
}
