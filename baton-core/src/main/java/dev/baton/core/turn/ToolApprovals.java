package dev.baton.core.turn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolDefinition;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Human approval of tool calls, as the turn loop sees it: which calls must wait for the user, and where a turn that
 * stops for them is kept. When a model reply asks for a call that needs approval, {@link TurnRunner} runs the reply's
 * other calls, hands the loop's state and the held calls to {@link #pause} — before the client hears of the pause,
 * so a decision can never arrive for a turn that is not stored yet — emits one
 * {@link TurnEvent.ApprovalRequired} per held call and ends with {@link TurnEvent.AwaitingApproval}. The turn goes on
 * from that state when a {@link TurnRequest} carries a {@link TurnResume}.
 *
 * <p>The runtime implements it (policy per tool and agent, a store of paused turns); {@link #NONE} holds nothing.
 */
public interface ToolApprovals {

    /** Nothing ever waits for approval. */
    ToolApprovals NONE = new ToolApprovals() {
        @Override
        public Optional<String> reasonToHold(AgentDefinition agent, ToolDefinition tool, ToolCallRequest call) {
            return Optional.empty();
        }

        @Override
        public List<Pending> pause(Pause pause) {
            throw new IllegalStateException("no call was held, so no turn can pause");
        }
    };

    /**
     * Why this call must wait for the user's approval before it runs, in a sentence for the user; empty when it may
     * run now. Asked only for calls that would otherwise run (known tool, permitted, valid arguments).
     */
    Optional<String> reasonToHold(AgentDefinition agent, ToolDefinition tool, ToolCallRequest call);

    /**
     * Stores the paused turn and its held calls.
     *
     * @return one pending approval per held call, in the same order
     * @throws RuntimeException when it could not be stored: the turn then fails instead of pausing
     */
    List<Pending> pause(Pause pause);

    /**
     * Notes that the approved calls of a paused turn going on are about to run ({@code recordIds}: their
     * {@link Pending#callId()}s): an instance that takes the turn over after this one died must not run them again
     * when it cannot tell whether they ran. Called before they run; a failure fails the turn instead of running them.
     */
    default void runStarting(TurnState state, List<String> recordIds) {}

    /**
     * A call held for approval.
     *
     * @param call the call as the model made it
     * @param reason why it needs approval, from {@link #reasonToHold}
     * @param summary what the call would do in the user's terms, from its tool's {@code Tool#summary} read as the
     *     caller when it was held; null when the tool has none
     */
    record Held(ToolCallRequest call, String reason, String summary) {
        public Held {
            Objects.requireNonNull(call, "call");
            Objects.requireNonNull(reason, "reason");
        }

        /** A held call whose tool has no summary. */
        public Held(ToolCallRequest call, String reason) {
            this(call, reason, null);
        }
    }

    /**
     * A turn stopping for approval.
     *
     * @param request the request the turn ran for
     * @param state the loop's state: the reply that asked for the held calls ends its messages, followed by the
     *     results of the reply's other calls; the held calls are its {@link TurnState#pendingToolCalls()}
     * @param held the calls waiting, in the model's order
     */
    record Pause(TurnRequest request, TurnState state, List<Held> held) {
        public Pause {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(state, "state");
            held = List.copyOf(held);
            if (held.isEmpty()) throw new IllegalArgumentException("a pause holds at least one call");
        }
    }

    /**
     * A held call as stored, waiting for the user's decision.
     *
     * @param callId names the held call for a decision (unique, unlike the model's ids); the call's
     *     {@code tool_calls} row gets this id once it is decided
     * @param toolCallId the model's id of the call (the {@code tool_call} and {@code tool_result} events use it)
     * @param arguments the arguments as the model sent them, parsed (a JSON string when they did not parse)
     * @param expiresAt when an undecided call is denied by expiry
     * @param summary the held call's {@link Held#summary()}; null when its tool has none
     */
    record Pending(
            String callId,
            String toolCallId,
            String name,
            JsonNode arguments,
            String reason,
            Instant expiresAt,
            String summary) {
        public Pending {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }

        /** A held call whose tool has no summary. */
        public Pending(
                String callId, String toolCallId, String name, JsonNode arguments, String reason, Instant expiresAt) {
            this(callId, toolCallId, name, arguments, reason, expiresAt, null);
        }
    }
}
