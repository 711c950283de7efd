package dev.baton.runtime.approval;

import dev.baton.core.tool.ToolError;

/**
 * A tool call whose outcome is unknown — it was running when its turn's instance died, so it may or may not have
 * taken effect — asked about through the approval flow ({@code durableTurns.unknownOutcome: ask}): the reason it is
 * held with, which says so to the user (in the pending approval's JSON, its event and the web app's card), and what
 * the model reads when it is not run again. Approving it runs the call again with the idempotency key of its first
 * attempt.
 */
public final class UnknownOutcomes {
    /** The code of the tool error the model reads for such a call that was not run again. */
    public static final String CODE = "tool_outcome_unknown";

    private UnknownOutcomes() {}

    /** Why a call of {@code toolName} whose outcome is unknown waits for the user, in a sentence for them. */
    public static String reason(String toolName) {
        return "The outcome of " + toolName + " is unknown: the server running it stopped while it ran, so it may or"
                + " may not have taken effect. Approve to run it again, or deny to skip it.";
    }

    /** Whether {@code held} waits because its outcome is unknown (rather than by the approval policy). */
    public static boolean asked(ToolApproval held) {
        return held.reason().equals(reason(held.toolName()));
    }

    /** What the model reads for a call whose outcome is unknown that was not run again, and {@code why}. */
    public static ToolError notRunAgain(String why) {
        return new ToolError(
                CODE,
                "The server running this call stopped while it ran, so it may or may not have taken effect; it was"
                        + " not run again (" + why + "). Tell the user, and check before trying again.");
    }
}
