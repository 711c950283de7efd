package dev.baton.server.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.http.Json;
import java.time.Instant;
import java.util.UUID;

/**
 * A2A 1.0's JSON objects (the ProtoJSON mapping the JS SDK 1.x speaks): task states {@code TASK_STATE_*}, roles
 * {@code ROLE_*}, a part is {@code {text}} or {@code {data}}, a stream event is one of {@code {task}}, {@code {message}},
 * {@code {statusUpdate}}, {@code {artifactUpdate}}.
 */
final class A2aWire {
    static final String PROTOCOL_VERSION = "1.0";
    /** The one artifact a task's answer is streamed into. */
    static final String ANSWER_ARTIFACT = "answer";

    private A2aWire() {}

    /** Baton's side of a task's state. */
    enum State {
        WORKING("TASK_STATE_WORKING"),
        INPUT_REQUIRED("TASK_STATE_INPUT_REQUIRED"),
        COMPLETED("TASK_STATE_COMPLETED"),
        FAILED("TASK_STATE_FAILED"),
        CANCELED("TASK_STATE_CANCELED");

        final String wire;

        State(String wire) {
            this.wire = wire;
        }

        /** Whether the task can change no more (input-required can: the answer goes on with it). */
        boolean terminal() {
            return this == COMPLETED || this == FAILED || this == CANCELED;
        }
    }

    static ObjectNode status(State state, ObjectNode message, Instant at) {
        ObjectNode s = Json.MAPPER.createObjectNode().put("state", state.wire);
        if (message != null) s.set("message", message);
        if (at != null) s.put("timestamp", at.toString());
        return s;
    }

    /** A message of the agent in a task. */
    static ObjectNode agentMessage(String taskId, String contextId, String text, JsonNode data) {
        ObjectNode m = Json.MAPPER
                .createObjectNode()
                .put("messageId", UUID.randomUUID().toString())
                .put("contextId", contextId)
                .put("taskId", taskId)
                .put("role", "ROLE_AGENT");
        ArrayNode parts = m.putArray("parts");
        if (text != null) parts.addObject().put("text", text);
        if (data != null) parts.addObject().set("data", data);
        return m;
    }

    static ObjectNode answerArtifact(String text) {
        ObjectNode a = Json.MAPPER
                .createObjectNode()
                .put("artifactId", ANSWER_ARTIFACT)
                .put("name", "answer");
        a.putArray("parts").addObject().put("text", text);
        return a;
    }

    static ObjectNode statusUpdate(String taskId, String contextId, ObjectNode status) {
        ObjectNode u = Json.MAPPER.createObjectNode().put("taskId", taskId).put("contextId", contextId);
        u.set("status", status);
        return Json.MAPPER.createObjectNode().set("statusUpdate", u);
    }

    static ObjectNode artifactUpdate(String taskId, String contextId, String text, boolean append, boolean last) {
        ObjectNode u = Json.MAPPER.createObjectNode().put("taskId", taskId).put("contextId", contextId);
        u.set("artifact", answerArtifact(text));
        if (append) u.put("append", true);
        if (last) u.put("lastChunk", true);
        return Json.MAPPER.createObjectNode().set("artifactUpdate", u);
    }

    /** A JSON-RPC success response. */
    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode r = Json.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id);
        r.set("result", result);
        return r;
    }
}
