package dev.baton.providers.openai;

import static dev.baton.providers.langchain.LangChainResponses.countOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.json.PooledJsonFactory;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.providers.langchain.LangChainResponses;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatResponseMetadata;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Translates LangChain4j's assembled streaming response into a core {@link ModelReply}. */
final class OpenAiReplyMapper {

    private static final ObjectMapper JSON = new ObjectMapper(PooledJsonFactory.create());

    private OpenAiReplyMapper() {}

    static ModelReply toReply(ChatResponse response, String requestedModel) {
        var ai = response.aiMessage();
        var calls = new ArrayList<ToolCallRequest>();
        var requests = ai.toolExecutionRequests();
        for (int i = 0; i < requests.size(); i++) {
            var request = requests.get(i);
            // some compatible servers omit tool call ids; the tool result must still be matched to its call
            var id = request.id() == null || request.id().isBlank() ? "call_" + i : request.id();
            calls.add(new ToolCallRequest(id, request.name(), request.arguments()));
        }
        var model = LangChainResponses.modelOf(response, requestedModel);
        return new ModelReply(ai.text(), calls, usageOf(response), model, rawFinishReason(response));
    }

    /**
     * The provider's own finish reason. LangChain4j's enum folds unknown reasons to null, so the raw events are
     * read first (the reason is in one of the last chunks).
     */
    static String rawFinishReason(ChatResponse response) {
        if (response.metadata() instanceof OpenAiChatResponseMetadata metadata
                && metadata.rawServerSentEvents() != null) {
            List<ServerSentEvent> events = metadata.rawServerSentEvents();
            for (int i = events.size() - 1; i >= 0; i--) {
                var reason = finishReasonIn(events.get(i).data());
                if (reason != null) {
                    return reason.toLowerCase(Locale.ROOT);
                }
            }
        }
        return LangChainResponses.finishReasonOf(response.finishReason());
    }

    private static String finishReasonIn(String data) {
        if (data == null || !data.contains("finish_reason")) {
            return null;
        }
        try {
            JsonNode reason = JSON.readTree(data).path("choices").path(0).path("finish_reason");
            return reason.isTextual() && !reason.asText().isBlank() ? reason.asText() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static TokenUsage usageOf(ChatResponse response) {
        var usage = response.tokenUsage();
        if (usage == null) {
            return TokenUsage.ZERO;
        }
        long cached = 0;
        if (usage instanceof OpenAiTokenUsage openAi
                && openAi.inputTokensDetails() != null
                && openAi.inputTokensDetails().cachedTokens() != null) {
            cached = openAi.inputTokensDetails().cachedTokens();
        }
        return new TokenUsage(countOf(usage.inputTokenCount()), countOf(usage.outputTokenCount()), cached);
    }
}
