package dev.baton.core.turn;

import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.ToolCallOutcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A turn's loop state between two steps (a model call, or the tool calls it asked for), as plain data: nothing in
 * it is live (no threads, futures or connections), so a turn paused for a user's approval can be stored with
 * {@link TurnStateCodec} and go on on another instance. {@link TurnRunner} reports it after every step through
 * {@link TurnRunner#withCheckpoints}.
 *
 * <p>What it does not hold is what the turn can get again: the request (principal, session, agent — reloaded by
 * whoever resumes), the stored user message ({@code userMessageId}), the tool catalogue and the modules.
 *
 * @param turnId the id the turn's {@link TurnEvent.Started} event announced
 * @param sessionId the session the turn runs in
 * @param userMessageId the stored user message the turn answers
 * @param deadline when the whole turn must have ended (start + the agent's requestTimeout), by the wall clock so it
 *     means the same on every instance; null when the turn has no time limit
 * @param iteration how many model calls have been made
 * @param messages everything the next model call is sent, system prompt first: the context, then each model reply
 *     (with the tool calls it asked for) and each tool result
 * @param answerText the answer released to the client so far (after the output filters)
 * @param model the model that answered last; null before the first answer
 * @param toolCalls every finished tool call of the turn, in order, with the id of its {@code tool_calls} row
 * @param usage one record per model call so far (not yet linked to the assistant message)
 * @param callCache the remembered tool answers, for answering repeated calls
 * @param filters the output filters' state; nothing is held back in it, as filters are flushed after every call
 */
public record TurnState(
        String turnId,
        String sessionId,
        String userMessageId,
        Instant deadline,
        int iteration,
        List<ChatMessage> messages,
        String answerText,
        String model,
        List<ToolCall> toolCalls,
        List<UsageRecord> usage,
        List<CallCache.Entry> callCache,
        OutputFilterChain.State filters) {

    /**
     * A finished tool call of the turn.
     *
     * @param recordId the id of its {@code tool_calls} row, fixed when the call is first written, so the end of the
     *     turn links that row instead of writing another
     */
    public record ToolCall(String recordId, ToolCallOutcome outcome) {
        public ToolCall {
            Objects.requireNonNull(recordId, "recordId");
            Objects.requireNonNull(outcome, "outcome");
        }

        /** The call's row; {@code messageId} is null until the turn's answer is stored. */
        public ToolCallRecord toRecord(String sessionId, String messageId) {
            return outcome.toRecord(recordId, sessionId, messageId);
        }
    }

    public TurnState {
        Objects.requireNonNull(turnId, "turnId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(userMessageId, "userMessageId");
        if (iteration < 0) {
            throw new IllegalArgumentException("iteration must be >= 0");
        }
        messages = List.copyOf(messages);
        answerText = Objects.requireNonNullElse(answerText, "");
        toolCalls = List.copyOf(toolCalls);
        usage = List.copyOf(usage);
        callCache = List.copyOf(callCache);
        filters = Objects.requireNonNullElse(filters, OutputFilterChain.State.EMPTY);
    }

    /** The state before the first model call. */
    public static TurnState start(
            String turnId, String sessionId, String userMessageId, Instant deadline, List<ChatMessage> context) {
        return new TurnState(
                turnId,
                sessionId,
                userMessageId,
                deadline,
                0,
                context,
                "",
                null,
                List.of(),
                List.of(),
                List.of(),
                OutputFilterChain.State.EMPTY);
    }

    /** How many tool calls the turn has made (each counts against the per-turn and per-conversation limits). */
    public int toolCallCount() {
        return toolCalls.size();
    }

    /**
     * The tool calls the last model reply asked for that have no result yet: what a turn paused after a model call
     * (or paused for approval, after running the reply's other calls) must run or refuse before it asks the model
     * again. Empty after a complete tool step and after an answer.
     */
    public List<ToolCallRequest> pendingToolCalls() {
        int last = lastReply();
        if (last < 0) {
            return List.of();
        }
        Set<String> answered = new HashSet<>();
        for (ChatMessage m : messages.subList(last + 1, messages.size())) {
            if (m instanceof ChatMessage.ToolResult result) {
                answered.add(result.toolCallId());
            }
        }
        List<ToolCallRequest> pending = new ArrayList<>();
        for (ToolCallRequest call : ((ChatMessage.Assistant) messages.get(last)).toolCalls()) {
            if (!answered.contains(call.id())) {
                pending.add(call);
            }
        }
        return List.copyOf(pending);
    }

    /** The index of the last model reply in {@link #messages}, if only tool results follow it; -1 otherwise. */
    int lastReply() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChatMessage m = messages.get(i);
            if (m instanceof ChatMessage.Assistant) {
                return i;
            }
            if (!(m instanceof ChatMessage.ToolResult)) {
                return -1;
            }
        }
        return -1;
    }
}
