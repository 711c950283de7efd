package dev.baton.core.context;

import dev.baton.core.model.ChatMessage;
import java.util.List;

/**
 * The messages for the model — system, history oldest first, the current user message — and how the token
 * budget was spent. Token figures are -1 when the counter failed and history fell back to the last N messages.
 *
 * @param historyBudget tokens history was allowed to use
 * @param historyMessages how many stored messages made it into the context
 */
public record BuiltContext(
        List<ChatMessage> messages,
        int systemTokens,
        int toolTokens,
        int currentTokens,
        int historyBudget,
        int historyTokens,
        int historyMessages,
        boolean countFallback) {
    public BuiltContext {
        messages = List.copyOf(messages);
    }

    /** The system message's text. */
    public String systemPrompt() {
        return ((ChatMessage.System) messages.getFirst()).content();
    }
}
