package dev.baton.runtime.approval;

import dev.baton.runtime.conversation.SendResult;
import java.util.List;
import java.util.Objects;

/** What deciding a held tool call came to. Refusals are thrown as a {@code RefusalException}. */
public sealed interface ApprovalResult {

    /** The decision was the turn's last: the turn went on and ran to its end (or to its next pause). */
    record Resumed(SendResult.Ran ran) implements ApprovalResult {
        public Resumed {
            Objects.requireNonNull(ran, "ran");
        }
    }

    /** The decision is recorded; the turn waits for its other held calls. */
    record Recorded(ToolApproval decided, List<ToolApproval> stillPending) implements ApprovalResult {
        public Recorded {
            Objects.requireNonNull(decided, "decided");
            stillPending = List.copyOf(stillPending);
        }
    }
}
