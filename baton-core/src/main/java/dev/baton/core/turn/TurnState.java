package dev.baton.core.turn;

import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import java.util.List;
import java.util.Objects;

/**
 * A turn's loop state between two model calls, as plain data: nothing in it is live (no threads, futures or
 * connections), so a turn paused for a user's approval can be stored and resumed on another instance.
 *
 * @param messages everything the next model call is sent, system prompt first
 * @param iteration how many model calls have been made
 * @param answerText the assistant text streamed so far in this turn
 * @param model the model that answered last; null before the first answer
 * @param toolCalls every tool call of the turn so far, in order
 * @param usage one record per model call so far (not yet linked to the assistant message)
 * @param callCache the remembered tool answers, for answering repeated calls
 */
public record TurnState(
        List<ChatMessage> messages,
        int iteration,
        String answerText,
        String model,
        List<ToolCallOutcome> toolCalls,
        List<UsageRecord> usage,
        List<CallCache.Entry> callCache) {

    public TurnState {
        messages = List.copyOf(messages);
        if (iteration < 0) {
            throw new IllegalArgumentException("iteration must be >= 0");
        }
        answerText = Objects.requireNonNullElse(answerText, "");
        toolCalls = List.copyOf(toolCalls);
        usage = List.copyOf(usage);
        callCache = List.copyOf(callCache);
    }

    /** The state before the first model call. */
    public static TurnState start(List<ChatMessage> context) {
        return new TurnState(context, 0, "", null, List.of(), List.of(), List.of());
    }
}
