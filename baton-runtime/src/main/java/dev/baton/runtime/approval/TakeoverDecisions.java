package dev.baton.runtime.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolError;
import dev.baton.core.turn.TurnResume;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a turn taken over from an instance that died while going on with it goes on with, so that no approved call
 * runs twice. The held calls' {@code tool_calls} rows (their ids are the approvals' ids) say what the dead instance
 * got to: a call with a row ran, and the model reads its recorded outcome; an approved call whose run had started
 * ({@link ApprovalStore#runStarting}) but left no row may or may not have taken effect, so it is not run again and the
 * model is told so; an approved call that never started runs now. A held call whose row is linked to an answer shows
 * the dead instance stored the turn's end: there is nothing to go on with.
 */
final class TakeoverDecisions {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final ToolError OUTCOME_UNKNOWN = new ToolError(
            "tool_outcome_unknown",
            "The server running this approved call stopped while it ran, so it may or may not have taken effect; it"
                    + " was not run again. Ask the user to check before trying again.");

    private TakeoverDecisions() {}

    /**
     * One decision per held call, in the model's order; empty when the dead instance had stored the turn's end.
     *
     * @param now when a call of unknown outcome is recorded as failed
     */
    static Optional<List<TurnResume.ToolDecision>> of(
            ApprovalStore.Resumable taken, ConversationStore conversations, Instant now) {
        PausedTurn turn = taken.turn();
        List<String> ids = taken.calls().stream().map(ToolApproval::callId).toList();
        Map<String, ToolCallRecord> rows = conversations.toolCallsWithIds(turn.userId(), turn.sessionId(), ids).stream()
                .collect(Collectors.toMap(ToolCallRecord::id, Function.identity(), (a, b) -> a));
        if (rows.values().stream().anyMatch(r -> r.messageId() != null)) return Optional.empty();
        return Optional.of(taken.calls().stream()
                .map(a -> decision(a, rows.get(a.callId()), taken.runStarted().contains(a.callId()), now))
                .toList());
    }

    private static TurnResume.ToolDecision decision(ToolApproval a, ToolCallRecord row, boolean started, Instant now) {
        if (a.status() != ApprovalStatus.APPROVED) return ApprovalDecisions.decision(a);
        ToolCallRequest call = new ToolCallRequest(a.toolCallId(), a.toolName(), a.effectiveArguments());
        if (row != null) return new TurnResume.ToolDecision.Settled(a.callId(), call, outcome(call, row), true);
        if (started) {
            return new TurnResume.ToolDecision.Settled(
                    a.callId(),
                    call,
                    ToolCallOutcome.rejected(call, ToolCallState.FAILED, OUTCOME_UNKNOWN, now),
                    false);
        }
        return ApprovalDecisions.decision(a);
    }

    /** The outcome a {@code tool_calls} row recorded: its result, or its error as "code: message". */
    private static ToolCallOutcome outcome(ToolCallRequest call, ToolCallRecord row) {
        Instant completed = row.completedAt() == null ? row.startedAt() : row.completedAt();
        if (row.toolResult() != null && row.errorMessage() == null) {
            return new ToolCallOutcome(
                    call, row.state(), parsed(row.toolResult()), null, row.startedAt(), completed, row.durationMs());
        }
        String message = row.errorMessage() == null ? "the call failed" : row.errorMessage();
        int colon = message.indexOf(": ");
        ToolError error = colon > 0
                ? new ToolError(message.substring(0, colon), message.substring(colon + 2))
                : new ToolError("tool_failed", message);
        ToolCallState state = row.state() == ToolCallState.SUCCEEDED ? ToolCallState.FAILED : row.state();
        return new ToolCallOutcome(call, state, null, error, row.startedAt(), completed, row.durationMs());
    }

    private static JsonNode parsed(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            return TextNode.valueOf(json);
        }
    }
}
