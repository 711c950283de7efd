package dev.baton.core.conversation;

import java.time.Instant;
import java.util.Objects;

/**
 * One tool call of a turn, as persisted.
 *
 * @param messageId the assistant message of the turn the call belongs to; null while that turn still runs (a call
 *     written as soon as it finished, see {@link ConversationStore#recordToolCalls}) or if it never ended
 * @param toolArgs the arguments as the model sent them (JSON text, possibly invalid)
 * @param toolResult the result as JSON text, null when the call failed
 */
public record ToolCallRecord(
        String id,
        String sessionId,
        String messageId,
        String toolName,
        String toolArgs,
        String toolResult,
        ToolCallState state,
        String errorMessage,
        Instant startedAt,
        Instant completedAt,
        long durationMs) {

    public ToolCallRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
