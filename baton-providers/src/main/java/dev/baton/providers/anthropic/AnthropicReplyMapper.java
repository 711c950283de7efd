package dev.baton.providers.anthropic;

import static dev.baton.providers.langchain.LangChainResponses.countOf;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.providers.langchain.LangChainResponses;
import dev.langchain4j.model.anthropic.AnthropicChatResponseMetadata;
import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Locale;

/**
 * Translates LangChain4j's assembled Anthropic response into a core {@link ModelReply}. Stop reasons are
 * normalised to the vocabulary the core uses for every provider: {@code end_turn} and {@code stop_sequence}
 * become "stop", {@code tool_use} "tool_calls", {@code max_tokens} "length", {@code refusal}
 * "content_filter"; anything else keeps Anthropic's name.
 */
final class AnthropicReplyMapper {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AnthropicReplyMapper() {}

    static ModelReply toReply(ChatResponse response, String requestedModel) {
        var ai = response.aiMessage();
        var calls = new ArrayList<ToolCallRequest>();
        for (var request : ai.toolExecutionRequests()) {
            var arguments = request.arguments() == null || request.arguments().isBlank() ? "{}" : request.arguments();
            calls.add(new ToolCallRequest(request.id(), request.name(), arguments));
        }
        var model = LangChainResponses.modelOf(response, requestedModel);
        return new ModelReply(ai.text(), calls, usageOf(response), model, finishReason(response));
    }

    static String normalise(String stopReason) {
        if (stopReason == null) {
            return null;
        }
        return switch (stopReason.toLowerCase(Locale.ROOT)) {
            case "end_turn", "stop_sequence", "pause_turn" -> "stop";
            case "tool_use" -> "tool_calls";
            case "max_tokens", "model_context_window_exceeded" -> "length";
            case "refusal" -> "content_filter";
            default -> stopReason.toLowerCase(Locale.ROOT);
        };
    }

    /** The raw {@code stop_reason} of the {@code message_delta} event; LangChain4j's enum loses unknown ones. */
    private static String finishReason(ChatResponse response) {
        if (response.metadata() instanceof AnthropicChatResponseMetadata metadata
                && metadata.rawServerSentEvents() != null) {
            for (var event : metadata.rawServerSentEvents()) {
                if ("message_delta".equals(event.event())) {
                    try {
                        var reason = JSON.readTree(event.data()).path("delta").path("stop_reason");
                        if (reason.isTextual()) {
                            return normalise(reason.asText());
                        }
                    } catch (IOException e) {
                        // a malformed event already failed the stream; nothing to read here
                    }
                }
            }
        }
        return LangChainResponses.finishReasonOf(response.finishReason());
    }

    /**
     * Anthropic counts cache reads and writes apart from {@code input_tokens}; the core's input count includes
     * them (as OpenAI's does), with the cache reads also reported as cached.
     */
    private static TokenUsage usageOf(ChatResponse response) {
        var usage = response.tokenUsage();
        if (usage == null) {
            return TokenUsage.ZERO;
        }
        long input = countOf(usage.inputTokenCount());
        long cached = 0;
        if (usage instanceof AnthropicTokenUsage anthropic) {
            cached = countOf(anthropic.cacheReadInputTokens());
            input += cached + countOf(anthropic.cacheCreationInputTokens());
        }
        return new TokenUsage(input, countOf(usage.outputTokenCount()), cached);
    }
}
