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
import dev.baton.runtime.approval.UnknownOutcomes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What becomes of the tool calls that were running when a turn's instance died: their outcome is unknown (each may
 * or may not have taken effect). A call of a tool declared idempotent ({@link dev.baton.core.tool.ToolDefinition#idempotent})
 * that the caller may use and that would run without the user's approval is run again, with the same idempotency key
 * as before ({@link dev.baton.core.id.CallKeys#toolCall}). Any other call the caller may still make is not run again
 * unasked: by {@link DurableTurnSettings.UnknownOutcome}, the model reads that it may or may not have happened
 * ({@code report}), or the user is asked whether to run it again ({@code ask}; a call the approval policy holds is
 * asked about once, for both). A call of a tool gone or no longer the caller's is reported.
 */
final class InFlightCalls {
    static final ToolError OUTCOME_UNKNOWN = new ToolError(
            UnknownOutcomes.CODE,
            "The server running this call stopped while it ran, so it may or may not have taken effect; it was not run"
                    + " again. Tell the user, and check before trying again.");

    private final ToolCatalog tools;

    private final ToolApprovals approvals;

    private final DurableTurnSettings.UnknownOutcome unknown;

    InFlightCalls(ToolCatalog tools, ToolApprovals approvals, DurableTurnSettings.UnknownOutcome unknown) {
        this.tools = tools;
        this.approvals = approvals;
        this.unknown = unknown;
    }

    /** One decision per call, in the model's order. */
    List<TurnResume.ToolDecision> decide(
            AgentDefinition agent, Principal caller, List<ToolCallRequest> running, Instant now) {
        return running.stream().map(call -> decide(agent, caller, call, now)).toList();
    }

    /**
     * What a turn closed without going on (its caller over budget at takeover) stores for the calls that were
     * running: none runs again, each is reported unknown.
     */
    static List<TurnResume.ToolDecision> reported(List<ToolCallRequest> running, Instant now) {
        return running.stream().map(call -> reported(call, now)).toList();
    }

    private TurnResume.ToolDecision decide(AgentDefinition agent, Principal caller, ToolCallRequest call, Instant now) {
        if (runAgain(agent, caller, call)) return new TurnResume.ToolDecision.Approve(Ids.newId(), call);
        if (unknown == DurableTurnSettings.UnknownOutcome.ASK && mayAsk(agent, caller, call))
            return new TurnResume.ToolDecision.Ask(Ids.newId(), call, UnknownOutcomes.reason(call.name()));
        return reported(call, now);
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

    /** Whether the user may be asked to run the call again: its tool is still there, and still the caller's. */
    private boolean mayAsk(AgentDefinition agent, Principal caller, ToolCallRequest call) {
        return tools.find(agent, call.name())
                .map(tool -> tool.definition().usableBy(caller))
                .orElse(false);
    }

    private static TurnResume.ToolDecision reported(ToolCallRequest call, Instant now) {
        return new TurnResume.ToolDecision.Settled(
                Ids.newId(), call, ToolCallOutcome.rejected(call, ToolCallState.FAILED, OUTCOME_UNKNOWN, now), false);
    }
}
