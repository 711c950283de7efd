package dev.baton.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.approval.ApprovalResult;

/**
 * The JSON answers of a turn, for a request that did not ask for a stream: a message's ({@code POST
 * /v1/sessions/{id}/messages} and a decision that went on with the turn), {@code POST /v1/chat}'s, and the 202 of a
 * decision that left other calls waiting.
 */
public final class TurnAnswers {

    private TurnAnswers() {}

    /** {@code {state:"completed", messageId, answer, toolCalls, usage, model, stopReason}}, or the paused turn. */
    public static ObjectNode message(TurnOutcome o) {
        if (o.awaitingApproval().isPresent()) return paused(WireJson.MAPPER.createObjectNode(), o);
        ObjectNode n = WireJson.MAPPER
                .createObjectNode()
                .put("state", "completed")
                .put("messageId", o.assistantMessage().id())
                .put("answer", o.assistantMessage().content());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(Views.toolCall(c)));
        n.set("usage", SseEvents.usage(o.usage()));
        n.put("model", o.model());
        stopReason(n, o);
        return n;
    }

    /** {@code POST /v1/chat}'s answer: the conversation (the session) it ran in, and the turn's outcome. */
    public static ObjectNode chat(String conversationId, TurnOutcome o) {
        if (o.awaitingApproval().isPresent())
            return paused(WireJson.MAPPER.createObjectNode().put("conversationId", conversationId), o);
        ObjectNode n = WireJson.MAPPER
                .createObjectNode()
                .put("conversationId", conversationId)
                .put("state", "completed")
                .put("turnId", o.assistantMessage().id())
                .put("answer", o.assistantMessage().content());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(Views.toolCall(c)));
        n.set("usage", SseEvents.usage(o.usage()));
        stopReason(n, o);
        return n;
    }

    /** A decision recorded while other calls of the turn still wait: {@code {state, decided, pendingApprovals}}. */
    public static ObjectNode recorded(ApprovalResult.Recorded recorded) {
        ObjectNode n = WireJson.MAPPER.createObjectNode().put("state", "awaiting_approval");
        n.set("decided", Views.approval(recorded.decided()));
        ArrayNode pending = n.putArray("pendingApprovals");
        recorded.stillPending().forEach(a -> pending.add(Views.approval(a)));
        return n;
    }

    /** Why the answer ended: completed, max_iterations or blocked. */
    private static void stopReason(ObjectNode n, TurnOutcome o) {
        if (o.terminal() instanceof TurnEvent.Done done) n.put("stopReason", done.stopReason());
    }

    /** A turn paused for approval: the fields of its {@code done} event, the answer so far and the calls that ran. */
    private static ObjectNode paused(ObjectNode n, TurnOutcome o) {
        SseEvents.awaitingApproval(n, o.awaitingApproval().orElseThrow());
        n.put("answer", o.answer());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(Views.toolCall(c)));
        return n;
    }
}
