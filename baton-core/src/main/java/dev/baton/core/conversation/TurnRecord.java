package dev.baton.core.conversation;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import java.util.List;
import java.util.Objects;

/**
 * Everything a finished (or cut-short) turn writes, committed in one transaction.
 *
 * @param audit audit records of the assistant message (an answer an after_ai hook or output filter changed)
 * @param extractions extractions from the turn's hooks
 * @param fence the running turn's lease: the record is stored only while it holds, and the lease ends with it (null
 *     for a turn that holds none)
 */
public record TurnRecord(
        Message assistantMessage,
        List<ToolCallRecord> toolCalls,
        List<UsageRecord> usage,
        List<AuditRecord> audit,
        List<ExtractionRecord> extractions,
        TurnFence fence) {
    public TurnRecord {
        Objects.requireNonNull(assistantMessage, "assistantMessage");
        toolCalls = List.copyOf(toolCalls);
        usage = List.copyOf(usage);
        audit = List.copyOf(audit == null ? List.of() : audit);
        extractions = List.copyOf(extractions == null ? List.of() : extractions);
    }

    /** A turn that holds no lease. */
    public TurnRecord(
            Message assistantMessage,
            List<ToolCallRecord> toolCalls,
            List<UsageRecord> usage,
            List<AuditRecord> audit,
            List<ExtractionRecord> extractions) {
        this(assistantMessage, toolCalls, usage, audit, extractions, null);
    }

    /** A turn without audit records or extractions. */
    public TurnRecord(Message assistantMessage, List<ToolCallRecord> toolCalls, List<UsageRecord> usage) {
        this(assistantMessage, toolCalls, usage, List.of(), List.of());
    }
}
