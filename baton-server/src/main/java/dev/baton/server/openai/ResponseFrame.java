package dev.baton.server.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;

/**
 * What every rendering of one response shares: its id ({@code resp_} and a new id, never the turn's: a turn that went
 * on after an approval is a second response), when it was created, the response it follows.
 */
record ResponseFrame(String id, long createdAt, String previousResponseId) {
    static final String PREFIX = "resp_";

    static ResponseFrame create(long createdAt, String previousResponseId) {
        return new ResponseFrame(PREFIX + Ids.newId(), createdAt, previousResponseId);
    }

    /** The id of the response's message item. */
    String messageId() {
        return "msg_" + id.substring(PREFIX.length());
    }

    /**
     * The key under which {@code HistoryKeys} keeps where the caller's response left its session: keys are per user id,
     * and the same user id in another tenant is another user.
     */
    static String key(Principal caller, String responseId) {
        return "response:" + caller.tenantId() + ":" + responseId;
    }

    ObjectNode response(String status, String model, ArrayNode output, ObjectNode usage, String sessionId) {
        return ResponsesWire.response(id, createdAt, status, model, output, usage, previousResponseId, sessionId);
    }
}
