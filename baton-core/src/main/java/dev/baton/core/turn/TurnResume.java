package dev.baton.core.turn;

import dev.baton.core.conversation.TurnFence;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolError;
import java.util.List;
import java.util.Objects;

/**
 * What a paused turn goes on with: its stored state and a decision for every call it held. A {@link TurnRequest}
 * that carries one resumes the turn instead of starting a new one: the approved calls run (the denied ones reach the
 * model as tool errors), then the loop continues under the turn's own limits — its model calls and tool calls so far
 * count, and its deadline is the state's.
 *
 * @param state the state the turn paused with (its deadline already moved by whoever resumes it)
 * @param decisions one per held call, in the model's order
 * @param fence the lease of a running turn taken over from an instance that died ({@link TurnJournal}): the turn's
 *     writes go on under it; null for a turn paused for approval
 */
public record TurnResume(TurnState state, List<ToolDecision> decisions, TurnFence fence) {
    public TurnResume {
        Objects.requireNonNull(state, "state");
        decisions = List.copyOf(decisions);
    }

    /** A paused turn going on once its held calls are decided. */
    public TurnResume(TurnState state, List<ToolDecision> decisions) {
        this(state, decisions, null);
    }

    /** The user's decision on one held call. */
    public sealed interface ToolDecision {
        /** The call's {@link ToolApprovals.Pending#callId()}: the id its {@code tool_calls} row gets. */
        String recordId();

        /** The call as it will run or be refused: the model's id and name, and the arguments decided on. */
        ToolCallRequest call();

        /** Run the call (with {@code call}'s arguments, which the user may have edited). */
        record Approve(String recordId, ToolCallRequest call) implements ToolDecision {
            public Approve {
                Objects.requireNonNull(recordId, "recordId");
                Objects.requireNonNull(call, "call");
            }
        }

        /**
         * Do not run it again: an earlier attempt at this turn (on an instance that died while going on with it) ran
         * it, or started to. The model reads {@code outcome}.
         *
         * @param recorded whether {@code outcome} is already a {@code tool_calls} row (with id {@code recordId})
         */
        record Settled(String recordId, ToolCallRequest call, ToolCallOutcome outcome, boolean recorded)
                implements ToolDecision {
            public Settled {
                Objects.requireNonNull(recordId, "recordId");
                Objects.requireNonNull(call, "call");
                Objects.requireNonNull(outcome, "outcome");
            }
        }

        /**
         * Not decided yet: the turn stops again and asks the user ({@link ToolApprovals#pause}), once the other
         * decisions are carried out; the call goes on as the user then decides. For a call whose outcome is unknown
         * (its instance died while it ran) that may not be run again unasked.
         *
         * @param recordId unused for the call's row: the pause names the held call
         * @param reason why the user is asked, in a sentence for them (shown with the held call)
         */
        record Ask(String recordId, ToolCallRequest call, String reason) implements ToolDecision {
            public Ask {
                Objects.requireNonNull(recordId, "recordId");
                Objects.requireNonNull(call, "call");
                Objects.requireNonNull(reason, "reason");
            }
        }

        /** Do not run it; the model reads {@code error} as the call's result and must explain it to the user. */
        record Deny(String recordId, ToolCallRequest call, ToolError error) implements ToolDecision {
            public Deny {
                Objects.requireNonNull(recordId, "recordId");
                Objects.requireNonNull(call, "call");
                Objects.requireNonNull(error, "error");
            }
        }
    }
}
