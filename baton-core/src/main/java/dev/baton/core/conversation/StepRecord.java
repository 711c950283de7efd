package dev.baton.core.conversation;

import java.util.List;

/**
 * What a step of a running turn writes ({@link ConversationStore#recordStep}): its finished tool calls, not yet linked
 * to a message, and, for a leased turn, the turn's state after them.
 *
 * @param state the turn's checkpoint, {@code TurnStateCodec} JSON; null for a turn that is not leased (it has no
 *     checkpoint to write)
 */
public record StepRecord(List<ToolCallRecord> calls, String state) {
    public StepRecord {
        calls = List.copyOf(calls);
    }
}
