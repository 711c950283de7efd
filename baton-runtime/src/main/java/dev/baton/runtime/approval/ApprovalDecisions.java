package dev.baton.runtime.approval;

import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolError;
import dev.baton.core.turn.TurnResume;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;

/** How the runtime words a decision: for the turn going on, for a refused decision, and what it accepts. */
final class ApprovalDecisions {
    private ApprovalDecisions() {}

    /** What the turn goes on with for one held call, by what became of it. */
    static TurnResume.ToolDecision decision(ToolApproval a) {
        ToolCallRequest asHeld = new ToolCallRequest(a.toolCallId(), a.toolName(), a.arguments());
        if (UnknownOutcomes.asked(a) && a.status() != ApprovalStatus.APPROVED) {
            // skipped: the model must not read "not run", the first attempt may have taken effect
            return new TurnResume.ToolDecision.Deny(a.callId(), asHeld, UnknownOutcomes.notRunAgain(why(a)));
        }
        return switch (a.status()) {
            case APPROVED ->
                new TurnResume.ToolDecision.Approve(
                        a.callId(), new ToolCallRequest(a.toolCallId(), a.toolName(), a.effectiveArguments()));
            case DENIED ->
                new TurnResume.ToolDecision.Deny(
                        a.callId(),
                        asHeld,
                        new ToolError(
                                "approval_denied",
                                "The user did not approve this call, so it was not run"
                                        + (a.comment() == null || a.comment().isBlank()
                                                ? "."
                                                : " (their comment: " + a.comment() + ").")));
            case SUPERSEDED ->
                new TurnResume.ToolDecision.Deny(
                        a.callId(),
                        asHeld,
                        new ToolError(
                                "approval_superseded", "The user sent a new message instead of approving this call."));
            case EXPIRED, PENDING ->
                new TurnResume.ToolDecision.Deny(
                        a.callId(), asHeld, new ToolError("approval_expired", "Nobody approved this call in time."));
        };
    }

    /** Why a call whose outcome is unknown was not run again, by what became of its approval. */
    private static String why(ToolApproval a) {
        return switch (a.status()) {
            case DENIED ->
                "the user chose to skip it"
                        + (a.comment() == null || a.comment().isBlank() ? "" : "; their comment: " + a.comment());
            case SUPERSEDED -> "the user sent a new message instead";
            case EXPIRED, PENDING, APPROVED -> "nobody decided in time";
        };
    }

    static void checkInput(ApprovalDecision decision) {
        if (decision.comment() != null && decision.comment().length() > ApprovalDecision.MAX_COMMENT)
            throw RefusalException.invalidInput("comment is "
                    + decision.comment().length() + " characters; the limit is " + ApprovalDecision.MAX_COMMENT);
        if (decision.arguments() == null) return;
        if (!decision.approve()) throw RefusalException.invalidInput("arguments can only come with an approval");
        if (!decision.arguments().isObject()) throw RefusalException.invalidInput("arguments must be a JSON object");
    }

    static Refusal.ApprovalNotPending notPending(ApprovalStatus status) {
        return switch (status) {
            case EXPIRED ->
                new Refusal.ApprovalNotPending(
                        "approval_expired", "this tool call expired before it was decided; it was denied");
            case SUPERSEDED ->
                new Refusal.ApprovalNotPending(
                        "approval_superseded", "a new message was sent instead, which denied this tool call");
            case PENDING, APPROVED, DENIED ->
                new Refusal.ApprovalNotPending("approval_already_decided", "this tool call was already decided");
        };
    }
}
