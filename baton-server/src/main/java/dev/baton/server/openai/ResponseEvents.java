package dev.baton.server.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.server.http.Json;
import dev.baton.server.http.SseTurnListener;
import dev.baton.server.http.SseWriter;
import java.util.List;

/**
 * A turn as the Responses API's event stream: {@code response.created}, {@code response.in_progress}, the message
 * item's {@code response.output_item.added}, {@code response.content_part.added} and one
 * {@code response.output_text.delta} per text delta, then (in {@link #finish}) the closing events of the message, an
 * {@code mcp_approval_request} item per call waiting for approval, and last {@link #completed} — or
 * {@code response.failed}. Tools run on the server and are not streamed.
 */
final class ResponseEvents implements SseTurnListener.Encoder {
    private final ResponseFrame frame;
    private final StringBuilder text = new StringBuilder();
    private SseWriter writer;
    private long sequence;
    private boolean started;
    private boolean messageOpen;
    private String model;
    private String sessionId;

    ResponseEvents(ResponseFrame frame) {
        this.frame = frame;
    }

    void admitted(Session session) {
        model = session.agentId();
        sessionId = session.id();
    }

    @Override
    public void send(SseWriter writer, TurnEvent event) {
        this.writer = writer;
        begin();
        switch (event) {
            case TurnEvent.Chunk chunk -> delta(chunk.content());
            case TurnEvent.Blocked blocked -> delta(blocked.response());
            default -> {} // tools run on the server; the end is written by finish
        }
    }

    /**
     * Writes the end of the turn's output, before {@link #completed}; a failed turn ends here with
     * {@code response.failed}.
     *
     * @return the whole response, for {@link #completed}; null when the turn failed
     */
    ObjectNode finish(TurnOutcome outcome) {
        if (writer == null) return null;
        ArrayNode output = ResponsesWire.output();
        switch (outcome.terminal()) {
            case TurnEvent.Failed failed -> {
                ObjectNode response = frame.response("failed", model, ResponsesWire.output(), null, sessionId);
                response.set("error", ResponsesWire.error(failed));
                event("response.failed", Json.MAPPER.createObjectNode().set("response", response));
                return null;
            }
            case TurnEvent.AwaitingApproval paused -> {
                closeMessage(output);
                for (TurnEvent.ApprovalRequired call : paused.pending())
                    item(output, ResponsesWire.approvalRequest(call));
            }
            case TurnEvent.Done done -> {
                if (!messageOpen) delta(outcome.answer());
                closeMessage(output);
            }
            default -> throw new IllegalStateException("not a terminal event: " + outcome.terminal());
        }
        return frame.response("completed", model, output, ResponsesWire.usage(outcome.usage()), sessionId);
    }

    /**
     * A stream for a request that ran no turn: approval answers recorded while other calls of the turn still wait.
     */
    ObjectNode stillPending(SseWriter writer, String model, String sessionId, List<ToolApproval> pending) {
        this.writer = writer;
        this.model = model;
        this.sessionId = sessionId;
        begin();
        ArrayNode output = ResponsesWire.output();
        for (ToolApproval call : pending) item(output, ResponsesWire.approvalRequest(call));
        return frame.response("completed", model, output, null, sessionId);
    }

    /** The last event: the whole response. */
    void completed(ObjectNode response) {
        event("response.completed", Json.MAPPER.createObjectNode().set("response", response));
    }

    private void begin() {
        if (started) return;
        started = true;
        ObjectNode created = frame.response("in_progress", model, ResponsesWire.output(), null, sessionId);
        event("response.created", Json.MAPPER.createObjectNode().set("response", created));
        event("response.in_progress", Json.MAPPER.createObjectNode().set("response", created));
    }

    private void delta(String delta) {
        if (!messageOpen) {
            messageOpen = true;
            event(
                    "response.output_item.added",
                    Json.MAPPER
                            .createObjectNode()
                            .put("output_index", 0)
                            .set("item", ResponsesWire.message(frame.messageId(), "in_progress", null)));
            event("response.content_part.added", part().set("part", ResponsesWire.textPart("")));
        }
        text.append(delta);
        event("response.output_text.delta", part().put("delta", delta));
    }

    private void closeMessage(ArrayNode output) {
        if (!messageOpen) return;
        String all = text.toString();
        event("response.output_text.done", part().put("text", all));
        event("response.content_part.done", part().set("part", ResponsesWire.textPart(all)));
        ObjectNode item = ResponsesWire.message(frame.messageId(), "completed", all);
        event(
                "response.output_item.done",
                Json.MAPPER.createObjectNode().put("output_index", 0).set("item", item));
        output.add(item);
    }

    private void item(ArrayNode output, ObjectNode item) {
        int index = output.size();
        event(
                "response.output_item.added",
                Json.MAPPER.createObjectNode().put("output_index", index).set("item", item));
        event(
                "response.output_item.done",
                Json.MAPPER.createObjectNode().put("output_index", index).set("item", item));
        output.add(item);
    }

    private ObjectNode part() {
        return Json.MAPPER
                .createObjectNode()
                .put("item_id", frame.messageId())
                .put("output_index", 0)
                .put("content_index", 0);
    }

    private void event(String type, ObjectNode data) {
        data.put("sequence_number", sequence++);
        writer.send(type, data);
    }
}
