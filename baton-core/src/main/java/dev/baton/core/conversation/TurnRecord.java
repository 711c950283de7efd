package dev.baton.core.conversation;

import java.util.List;
import java.util.Objects;

/** Everything a finished (or cut-short) turn writes, committed in one transaction. */
public record TurnRecord(Message assistantMessage, List<ToolCallRecord> toolCalls, List<UsageRecord> usage) {
    public TurnRecord {
        Objects.requireNonNull(assistantMessage, "assistantMessage");
        toolCalls = List.copyOf(toolCalls);
        usage = List.copyOf(usage);
    }
}
