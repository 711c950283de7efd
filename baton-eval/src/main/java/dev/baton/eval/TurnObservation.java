package dev.baton.eval;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * What one user turn of a scenario came to: everything an {@link Expectation} may look at.
 *
 * @param answer the assistant's answer as stored (empty for a turn that paused or failed before answering)
 * @param toolCalls the tool calls that ran, in order
 * @param approvalsRequired the tools whose calls the turn stopped for, awaiting the user's approval
 * @param modelCalls how many times the model was asked (the turn loop's iterations)
 * @param error the turn's error code and message ("rate_limited: ...") when it failed or was refused; null otherwise
 * @param latencyMs from sending the message to the turn's last event
 */
public record TurnObservation(
        String message,
        String answer,
        List<ObservedToolCall> toolCalls,
        List<String> approvalsRequired,
        int modelCalls,
        String error,
        long latencyMs,
        long inputTokens,
        long outputTokens,
        BigDecimal costUsd) {

    public TurnObservation {
        Objects.requireNonNull(message, "message");
        answer = answer == null ? "" : answer;
        toolCalls = List.copyOf(toolCalls);
        approvalsRequired = List.copyOf(approvalsRequired);
        costUsd = costUsd == null ? BigDecimal.ZERO : costUsd;
    }

    /** The names of the tools called, in order. */
    public List<String> toolNames() {
        return toolCalls.stream().map(ObservedToolCall::name).toList();
    }
}
