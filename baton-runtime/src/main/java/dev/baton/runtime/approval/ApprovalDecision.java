package dev.baton.runtime.approval;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a user decides about a held tool call.
 *
 * @param approve true to run the call, false to deny it (the model is told and must explain it to the user)
 * @param arguments edited arguments to run the call with, checked against the tool's schema; null to keep the
 *     model's. Only with an approval
 * @param comment a note kept with the decision (and, for a denial, passed to the model); null for none
 */
public record ApprovalDecision(boolean approve, JsonNode arguments, String comment) {
    /** The longest comment kept. */
    public static final int MAX_COMMENT = 2000;

    /** Run the call as the model asked. */
    public static ApprovalDecision approval() {
        return new ApprovalDecision(true, null, null);
    }

    /** Do not run it. */
    public static ApprovalDecision denial(String comment) {
        return new ApprovalDecision(false, null, comment);
    }
}
