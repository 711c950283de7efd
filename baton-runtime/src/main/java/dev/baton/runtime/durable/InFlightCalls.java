package dev.baton.runtime.durable;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolError;
import dev.baton.core.turn.ToolApprovals;
import dev.baton.core.turn.TurnResume;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What becomes of the tool calls that were running when a turn's instance died: their outcome is unknown (each may
 * or may not have taken effect). A call of a tool declared idempotent ({@link dev.baton.core.tool.ToolDefinition#idempotent})
 * that the caller may use and that would run without the user's approval is run again, with the same idempotency key
 * as before ({@link dev.baton.core.id.CallKeys#toolCall}); any other is not run again: the model reads that it may or
 * may not have happened.
 */
final class InFlightCalls {
    static final ToolError OUTCOME_UNKNOWN = new ToolError(
            "tool_outcome_unknown",
            "The server running this call stopped while it ran, so it may or may not have taken effect; it was not run"
                    + " again. Tell the user, and check before trying again.");

    private final ToolCatalog tools;

    private final ToolApprovals approvals;

    InFlightCalls(ToolCatalog tools, ToolApprovals approvals) {
        this.tools = tools;
        this.approvals = approvals;
    }

    /** One decision per call, in the model's order. */
    List<TurnResume.ToolDecision> decide(
            AgentDefinition agent, Principal caller, List<ToolCallRequest> running, Instant now) {
        return running.stream()
                .map(call -> runAgain(agent, caller, call)
                        ? (TurnResume.ToolDecision) new TurnResume.ToolDecision.Approve(Ids.newId(), call)
                        : new TurnResume.ToolDecision.Settled(
                                Ids.newId(),
                                call,
                                ToolCallOutcome.rejected(call, ToolCallState.FAILED, OUTCOME_UNKNOWN, now),
                                false))
                .toList();
    }

    private boolean runAgain(AgentDefinition agent, Principal caller, ToolCallRequest call) {
        Optional<Tool> tool = tools.find(agent, call.name());
        if (tool.isEmpty()) return false;
        var definition = tool.get().definition();
        // a call the approval policy would hold never runs unasked, not even again
        // a transactional call in flight was rolled back with its instance: it had no effect
        return (definition.idempotent() || definition.transactional())
                && definition.usableBy(caller)
                && approvals.reasonToHold(agent, definition, call).isEmpty();
    }
}
