package dev.baton.providers.langchain;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;

/**
 * What the adapters built on LangChain4j read the same way from an assembled response; the provider's own
 * finish reason and usage details stay with each adapter.
 */
public final class LangChainResponses {

    private LangChainResponses() {}

    /**
     * LangChain4j's finish reason in the core's vocabulary, for when the provider's own was not found in the raw
     * events; {@code null} when there is none.
     */
    public static String finishReasonOf(FinishReason reason) {
        if (reason == null) {
            return null;
        }
        return switch (reason) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case TOOL_EXECUTION -> "tool_calls";
            case CONTENT_FILTER -> "content_filter";
            case OTHER -> "other";
        };
    }

    /** The model the provider said answered, else the one requested. */
    public static String modelOf(ChatResponse response, String requestedModel) {
        return response.modelName() == null ? requestedModel : response.modelName();
    }

    /** A token count LangChain4j may leave out. */
    public static long countOf(Integer count) {
        return count == null ? 0 : count;
    }
}
