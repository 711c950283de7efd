package dev.baton.server.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.Json;
import dev.baton.server.http.OpenAiErrorShape;
import dev.baton.server.http.SseTurnListener;
import dev.baton.server.http.SseWriter;

/**
 * A turn as OpenAI's {@code chat.completion.chunk} stream: a first chunk with the role, one per text delta, then (in
 * {@link #finish}) the chunk with {@code finish_reason} and, when asked for, the usage chunk, then {@code [DONE]}. Tool
 * calls run on the server and are not streamed. Keeps the text it sent: the client sends it back as the assistant's
 * message, and the history digest must match what the client holds.
 */
final class ChatChunks implements SseTurnListener.Encoder {
    private final long created;
    private final boolean includeUsage;
    private final StringBuilder text = new StringBuilder();
    private SseWriter writer;
    private String id;
    private String model;
    private String sessionId;

    ChatChunks(long created, boolean includeUsage) {
        this.created = created;
        this.includeUsage = includeUsage;
    }

    void admitted(Session session) {
        model = session.agentId();
        sessionId = session.id();
        id = "chatcmpl-" + session.id();
    }

    @Override
    public void send(SseWriter writer, TurnEvent event) {
        this.writer = writer;
        switch (event) {
            case TurnEvent.Started started -> {
                id = "chatcmpl-" + started.turnId();
                chunk(ChatCompletionWire.roleDelta(), null);
            }
            case TurnEvent.Chunk chunk -> content(chunk.content());
            case TurnEvent.Blocked blocked -> content(blocked.response());
            default -> {} // tools run on the server; the end is written by finish
        }
    }

    /**
     * Writes how the turn ended: the last chunks, or an error event for a failed turn.
     *
     * @return whether the turn answered (then {@link #done} ends the stream), false when it failed
     */
    boolean finish(TurnOutcome outcome) {
        if (writer == null) return false;
        String finish;
        switch (outcome.terminal()) {
            case TurnEvent.Failed failed -> {
                ObjectNode error =
                        OpenAiErrorShape.body(ErrorResponses.status(failed), failed.code(), failed.message(), null);
                writer.sendData(error.toString());
                return false;
            }
            case TurnEvent.AwaitingApproval paused -> {
                content(ChatCompletionWire.approvalNotice(paused, sessionId));
                finish = "stop";
            }
            case TurnEvent.Done done -> finish = ChatCompletionWire.finishReason(done);
            default -> throw new IllegalStateException("not a terminal event: " + outcome.terminal());
        }
        chunk(Json.MAPPER.createObjectNode(), finish);
        if (includeUsage)
            writer.sendData(ChatCompletionWire.usageChunk(id, created, model, ChatCompletionWire.usage(outcome.usage()))
                    .toString());
        return true;
    }

    /** Ends the stream as OpenAI's do. */
    void done() {
        writer.sendData("[DONE]");
    }

    /** The answer's text as streamed. */
    String text() {
        return text.toString();
    }

    private void content(String delta) {
        text.append(delta);
        chunk(ChatCompletionWire.delta(delta), null);
    }

    private void chunk(ObjectNode delta, String finish) {
        writer.sendData(ChatCompletionWire.chunk(id, created, model, delta, finish, includeUsage)
                .toString());
    }
}
