package dev.baton.server.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

    /** The key under which {@code HistoryKeys} keeps where this response left its session. */
    static String key(String responseId) {
        return "response:" + responseId;
    }

    ObjectNode response(String status, String model, ArrayNode output, ObjectNode usage, String sessionId) {
        return ResponsesWire.response(id, createdAt, status, model, output, usage, previousResponseId, sessionId);
    }
}
