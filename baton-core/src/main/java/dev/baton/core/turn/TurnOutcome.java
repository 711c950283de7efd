package dev.baton.core.turn;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.ToolCallRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a turn ended, for a caller that wants one answer rather than a stream (the server's JSON response).
 *
 * @param userMessage the stored user message; null only when storing it failed
 * @param assistantMessage the stored assistant message (COMPLETE, or INCOMPLETE/CANCELLED with the partial text);
 *     null when the turn failed before or while storing it
 * @param toolCalls the turn's tool calls as persisted, in order
 * @param usage the turn's total token usage and cost
 * @param model the model that answered; null when no model answered
 * @param terminal the last event: {@link TurnEvent.Done}, {@link TurnEvent.Failed}, or
 *     {@link TurnEvent.AwaitingApproval} for a turn paused until the user decides on a tool call (no assistant
 *     message then; {@code toolCalls} are the ones that ran before the pause)
 */
public record TurnOutcome(
        Message userMessage,
        Message assistantMessage,
        List<ToolCallRecord> toolCalls,
        TurnEvent.Usage usage,
        String model,
        TurnEvent terminal) {

    public TurnOutcome {
        toolCalls = List.copyOf(toolCalls);
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(terminal, "terminal");
        if (!terminal.isTerminal()) {
            throw new IllegalArgumentException("terminal must be Done, Failed or AwaitingApproval");
        }
    }

    public boolean succeeded() {
        return terminal instanceof TurnEvent.Done;
    }

    /** The failure, when the turn did not succeed. */
    public Optional<TurnEvent.Failed> failure() {
        return terminal instanceof TurnEvent.Failed f ? Optional.of(f) : Optional.empty();
    }

    /** The pause, when the turn stopped to wait for the user's approval of a tool call. */
    public Optional<TurnEvent.AwaitingApproval> awaitingApproval() {
        return terminal instanceof TurnEvent.AwaitingApproval a ? Optional.of(a) : Optional.empty();
    }

    /** The assistant's answer as stored (partial for a failed turn); empty when nothing was stored. */
    public String answer() {
        return assistantMessage == null ? "" : assistantMessage.content();
    }
}
