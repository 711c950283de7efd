package dev.baton.runtime.approval;

import java.time.Instant;
import java.util.Objects;

/**
 * One held tool call and what became of it: the approval record, kept as an audit trail (it outlives the session).
 *
 * @param callId the call's id for decisions; also the id of its {@code tool_calls} row once it is decided
 * @param turnId the paused turn it belongs to
 * @param position its place among the calls its turn held (the model's order)
 * @param toolCallId the model's id of the call
 * @param arguments the arguments as the model sent them (raw JSON text)
 * @param reason why it needed approval
 * @param summary what the call would do in the user's terms, as its tool summarised it when it was held; null when the
 *     tool has none (and for calls held before summaries were kept)
 * @param decidedAt when it stopped being pending; null while pending
 * @param decidedBy the user who approved or denied it (or whose new message superseded it); null while pending and
 *     when it expired
 * @param decidedArguments the arguments it ran with when the user edited them; null otherwise
 * @param comment the user's comment, or why the runtime decided; may be null
 */
public record ToolApproval(
        String callId,
        String turnId,
        int position,
        String tenantId,
        String userId,
        String sessionId,
        String toolCallId,
        String toolName,
        String arguments,
        String reason,
        String summary,
        ApprovalStatus status,
        Instant createdAt,
        Instant expiresAt,
        Instant decidedAt,
        String decidedBy,
        String decidedArguments,
        String comment) {

    public ToolApproval {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(turnId, "turnId");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    public boolean isPending() {
        return status == ApprovalStatus.PENDING;
    }

    /** The arguments the call runs (or would have run) with: the edited ones when there are, else the model's. */
    public String effectiveArguments() {
        return decidedArguments != null ? decidedArguments : arguments;
    }
}
