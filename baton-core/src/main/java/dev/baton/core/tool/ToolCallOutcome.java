package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolCallRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What became of one tool call: plain data, so a paused turn can be stored and resumed elsewhere.
 *
 * @param result the tool's result when the call succeeded (or was answered from an identical successful call)
 * @param error why there is no result; exactly one of {@code result} and {@code error} is set
 */
public record ToolCallOutcome(
        ToolCallRequest request,
        ToolCallState state,
        JsonNode result,
        ToolError error,
        Instant startedAt,
        Instant completedAt,
        long durationMs) {

    public ToolCallOutcome {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(completedAt, "completedAt");
        if ((result == null) == (error == null)) {
            throw new IllegalArgumentException("exactly one of result and error must be set");
        }
        if (durationMs < 0) {
            throw new IllegalArgumentException("durationMs must be >= 0");
        }
    }

    public static ToolCallOutcome succeeded(
            ToolCallRequest request, JsonNode result, Instant startedAt, Instant completedAt) {
        return new ToolCallOutcome(
                request,
                ToolCallState.SUCCEEDED,
                result,
                null,
                startedAt,
                completedAt,
                millisBetween(startedAt, completedAt));
    }

    public static ToolCallOutcome failed(
            ToolCallRequest request, ToolCallState state, ToolError error, Instant startedAt, Instant completedAt) {
        if (state == ToolCallState.SUCCEEDED) {
            throw new IllegalArgumentException("a failed outcome cannot be SUCCEEDED");
        }
        return new ToolCallOutcome(
                request, state, null, error, startedAt, completedAt, millisBetween(startedAt, completedAt));
    }

    /** A call that was never executed (bad arguments, denied, over a limit): it starts and ends at once. */
    public static ToolCallOutcome rejected(ToolCallRequest request, ToolCallState state, ToolError error, Instant at) {
        return failed(request, state, error, at, at);
    }

    /** Whether the model gets a result rather than an error. */
    public boolean ok() {
        return error == null;
    }

    /** The tool message the model reads: the result JSON, or {"error":{"code":"...","message":"..."}}. */
    public ChatMessage.ToolResult toMessage() {
        String content = ok() ? result.toString() : ToolJson.errorContent(error);
        return new ChatMessage.ToolResult(request.id(), request.name(), content);
    }

    /**
     * The row persisted for this call, linked to the turn's assistant message. The row gets its own id: the
     * model's call ids are only unique within one response.
     */
    public ToolCallRecord toRecord(String sessionId, String assistantMessageId) {
        return toRecord(Ids.newId(), sessionId, assistantMessageId);
    }

    /**
     * The row persisted for this call under a row id chosen earlier: a call written as soon as it finished keeps its
     * id when the end of the turn links it to the assistant message.
     *
     * @param assistantMessageId null while the turn's answer is not stored yet
     */
    public ToolCallRecord toRecord(String id, String sessionId, String assistantMessageId) {
        return new ToolCallRecord(
                id,
                sessionId,
                assistantMessageId,
                request.name(),
                request.argumentsJson(),
                ok() ? result.toString() : null,
                state,
                ok() ? null : error.code() + ": " + error.message(),
                startedAt,
                completedAt,
                durationMs);
    }

    private static long millisBetween(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis());
    }
}
