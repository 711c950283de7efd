package dev.baton.server.a2a;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.server.a2a.A2aWire.State;
import dev.baton.server.http.Json;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One A2A task, which is one Baton turn, as its events make it: the turn's id is the task's, its session the task's
 * context; {@code working} until the turn ends {@code completed}, {@code failed} or {@code canceled}, or pauses for the
 * user's approval ({@code input-required}). The answer is the task's one artifact, {@value A2aWire#ANSWER_ARTIFACT}.
 * Each event applied also comes back as the A2A stream events it becomes. Confined to one thread.
 */
final class TaskProgress {
    /** The codes of turns that ended because someone stopped them, not because something failed. */
    private static final List<String> CANCELED_CODES = List.of("cancelled", "approval_superseded");

    private final Clock clock;
    private String taskId;
    private String contextId;
    private State state = State.WORKING;
    private final StringBuilder answer = new StringBuilder();
    private final List<TurnEvent.ApprovalRequired> pending = new ArrayList<>();
    private ObjectNode statusMessage;
    private Instant updatedAt;

    TaskProgress(Clock clock) {
        this.clock = clock;
    }

    /** Applies the turn's next event; returns the A2A stream events it becomes (results of a streaming call). */
    List<ObjectNode> apply(TurnEvent event) {
        updatedAt = clock.instant();
        return switch (event) {
            case TurnEvent.Started started -> {
                boolean resumed = taskId != null;
                taskId = started.turnId();
                contextId = started.sessionId();
                state = State.WORKING;
                pending.clear();
                statusMessage = null;
                // the first event of a stream is the task; a paused task going on says it works again
                yield List.of(
                        resumed
                                ? A2aWire.statusUpdate(taskId, contextId, status())
                                : Json.MAPPER.createObjectNode().set("task", task()));
            }
            case TurnEvent.Chunk chunk -> {
                boolean append = !answer.isEmpty();
                answer.append(chunk.content());
                yield List.of(A2aWire.artifactUpdate(taskId, contextId, chunk.content(), append, false));
            }
            case TurnEvent.Blocked blocked -> {
                // a module answered instead of the model: its answer replaces whatever was streamed
                answer.setLength(0);
                answer.append(blocked.response());
                yield List.of(A2aWire.artifactUpdate(taskId, contextId, blocked.response(), false, false));
            }
            case TurnEvent.ConnectRequired connect -> {
                // the tool's result tells the model, which tells the user; the link is for Baton's own users
                ObjectNode data = Json.MAPPER.createObjectNode();
                data.putObject("connectRequired")
                        .put("toolCallId", connect.toolCallId())
                        .put("server", connect.server())
                        .put("connectUrl", connect.connectUrl());
                yield List.of(working(data));
            }
            case TurnEvent.ToolCallStarted call -> {
                ObjectNode data = Json.MAPPER.createObjectNode();
                data.putObject("toolCall")
                        .put("id", call.id())
                        .put("name", call.name())
                        .put("status", "started");
                yield List.of(working(data));
            }
            case TurnEvent.ToolCallFinished call -> {
                ObjectNode data = Json.MAPPER.createObjectNode();
                data.putObject("toolCall")
                        .put("id", call.id())
                        .put("name", call.name())
                        .put("status", call.ok() ? "completed" : "failed");
                yield List.of(working(data));
            }
            case TurnEvent.ApprovalRequired required -> {
                pending.add(required);
                yield List.of();
            }
            case TurnEvent.AwaitingApproval paused -> {
                state = State.INPUT_REQUIRED;
                statusMessage = A2aWire.agentMessage(taskId, contextId, approvalQuestion(), pendingData());
                yield List.of(A2aWire.statusUpdate(taskId, contextId, status()));
            }
            case TurnEvent.Done done -> {
                state = State.COMPLETED;
                statusMessage = A2aWire.agentMessage(taskId, contextId, answer.toString(), null);
                yield List.of(
                        A2aWire.artifactUpdate(taskId, contextId, "", true, true),
                        A2aWire.statusUpdate(taskId, contextId, status()));
            }
            case TurnEvent.Failed failed -> {
                state = CANCELED_CODES.contains(failed.code()) ? State.CANCELED : State.FAILED;
                ObjectNode data = Json.MAPPER
                        .createObjectNode()
                        .put("code", failed.code())
                        .put("retryable", failed.retryable());
                statusMessage = A2aWire.agentMessage(taskId, contextId, failed.message(), data);
                yield List.of(A2aWire.statusUpdate(taskId, contextId, status()));
            }
            case TurnEvent.Thinking thinking -> List.of();
        };
    }

    /**
     * Ends a task whose pause ended without its turn's events saying so: its held calls were denied by a new message
     * in the session, or expired (the turn then ended without the model, and without a stream to record it).
     */
    void pauseEndedElsewhere() {
        if (state != State.INPUT_REQUIRED) return;
        state = State.CANCELED;
        updatedAt = clock.instant();
        ObjectNode data =
                Json.MAPPER.createObjectNode().put("code", "approval_ended").put("retryable", false);
        statusMessage = A2aWire.agentMessage(
                taskId, contextId, "The calls waiting for approval were denied by a new message, or expired.", data);
    }

    /** Whether the turn has started (a task exists). */
    boolean started() {
        return taskId != null;
    }

    String taskId() {
        return taskId;
    }

    String contextId() {
        return contextId;
    }

    State state() {
        return state;
    }

    /** The task as it stands: id, context, status, and the answer so far as its artifact. */
    ObjectNode task() {
        ObjectNode t = Json.MAPPER.createObjectNode().put("id", taskId).put("contextId", contextId);
        t.set("status", status());
        if (!answer.isEmpty()) t.putArray("artifacts").add(A2aWire.answerArtifact(answer.toString()));
        return t;
    }

    private ObjectNode status() {
        return A2aWire.status(state, statusMessage, updatedAt);
    }

    private ObjectNode working(ObjectNode data) {
        return A2aWire.statusUpdate(
                taskId,
                contextId,
                A2aWire.status(State.WORKING, A2aWire.agentMessage(taskId, contextId, null, data), updatedAt));
    }

    private String approvalQuestion() {
        StringBuilder q = new StringBuilder("Waiting for your approval before running ");
        for (int i = 0; i < pending.size(); i++) {
            if (i > 0) q.append(i == pending.size() - 1 ? " and " : ", ");
            TurnEvent.ApprovalRequired call = pending.get(i);
            q.append(call.name()).append(' ').append(call.arguments());
        }
        return q.append(". Answer yes or no.").toString();
    }

    private ObjectNode pendingData() {
        ObjectNode data = Json.MAPPER.createObjectNode();
        ArrayNode calls = data.putArray("pendingApprovals");
        for (TurnEvent.ApprovalRequired call : pending) {
            ObjectNode c = calls.addObject()
                    .put("callId", call.callId())
                    .put("tool", call.name())
                    .put("reason", call.reason())
                    .put("expiresAt", call.expiresAt().toString());
            c.set("arguments", call.arguments());
        }
        return data;
    }
}
