package dev.baton.core.conversation;

import java.util.List;
import java.util.Objects;

/**
 * What a step of a leased running turn writes ({@link ConversationStore#recordStep}): its finished tool calls, not
 * yet linked to a message, and the turn's state after them.
 *
 * @param state the turn's checkpoint, {@code TurnStateCodec} JSON
 */
public record StepRecord(List<ToolCallRecord> calls, String state) {
    public StepRecord {
        calls = List.copyOf(calls);
        Objects.requireNonNull(state, "state");
    }
}
