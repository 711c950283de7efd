package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.server.http.Caller;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import dev.baton.server.http.RequestIds;
import dev.baton.server.http.SseEvents;
import dev.baton.server.http.SseWriter;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Function;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;

/**
 * {@code POST /v1/sessions/{id}/messages} and the one-shot {@code POST /v1/chat}: the HTTP wire around
 * {@link Conversations}. Answers as SSE ({@code Accept: text/event-stream}) or as one JSON document; every rule
 * (input, idempotency, limits, budgets, session state, one turn per session, deadlines) is the runtime's.
 */
public final class MessageRoutes {

    private final Conversations conversations;
    private final int maxBodyBytes;
    private final Duration heartbeat;

    public MessageRoutes(Conversations conversations, int maxBodyBytes, Duration heartbeat) {
        this.conversations = conversations;
        this.maxBodyBytes = maxBodyBytes;
        this.heartbeat = heartbeat;
    }

    record SendMessage(String content) {}

    record ChatRequest(String message, String conversationId, String agentId, Boolean stream) {}

    public void register(RoutesConfig routes) {
        routes.post("/v1/sessions/{id}/messages", this::send);
        routes.post("/v1/chat", this::chat);
    }

    private void send(Context ctx) throws IOException {
        var caller = Caller.with(ctx, Sessions.WRITE);
        String raw = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        SendMessage body = RequestBody.bind(RequestBody.parseObject(raw), SendMessage.class);
        SendOptions options = options(ctx, raw, MessageRoutes::messageResponse);
        respond(
                ctx,
                wantsSse(ctx),
                false,
                listener -> conversations.send(caller, ctx.pathParam("id"), body.content(), options, listener));
    }

    private void chat(Context ctx) throws IOException {
        var caller = Caller.with(ctx, Sessions.WRITE);
        String raw = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        ChatRequest body = RequestBody.bind(RequestBody.parseObject(raw), ChatRequest.class);
        boolean sse = body.stream() != null ? body.stream() : wantsSse(ctx);
        var target = new Conversations.ChatTarget(body.conversationId(), body.agentId());
        // the replayed body names the conversation the first attempt created
        SendOptions options =
                options(ctx, raw, outcome -> chatResponse(outcome.userMessage().sessionId(), outcome));
        respond(ctx, sse, true, listener -> conversations.chat(caller, target, body.message(), options, listener));
    }

    private static SendOptions options(Context ctx, String raw, Function<TurnOutcome, ObjectNode> replayBody) {
        String key = ctx.header("Idempotency-Key");
        String requestId = ctx.attribute(RequestIds.ATTRIBUTE);
        if (key == null) return SendOptions.of(requestId);
        return new SendOptions(
                requestId,
                new IdempotencyKey(key, raw),
                outcome -> replayBody.apply(outcome).toString());
    }

    /** Runs the send with a listener that streams (SSE) or collects nothing (JSON), then answers. */
    private void respond(Context ctx, boolean sse, boolean chatShape, Function<TurnListener, SendResult> send) {
        StreamingListener listener = sse ? new StreamingListener(ctx, heartbeat) : null;
        SendResult result;
        try {
            result = send.apply(listener != null ? listener : new QuotaHeaders(ctx));
        } finally {
            // the heartbeat must stop whatever happened after the stream began
            if (listener != null) listener.close();
        }
        switch (result) {
            case SendResult.Replayed r -> {
                ctx.header("Idempotent-Replayed", "true");
                ctx.status(r.status()).contentType("application/json").result(r.body());
            }
            case SendResult.Ran ran when sse -> {} // the stream said it all, its terminal event included
            case SendResult.Ran ran -> {
                if (ran.outcome().terminal() instanceof TurnEvent.Failed f) {
                    ErrorResponses.turnFailed(ctx, f);
                    return;
                }
                ctx.json(chatShape ? chatResponse(ran.session().id(), ran.outcome()) : messageResponse(ran.outcome()));
            }
        }
    }

    /** JSON mode: the rate-limit fields go on the response once the turn is admitted. */
    private record QuotaHeaders(Context ctx) implements TurnListener {
        @Override
        public void admitted(AdmittedTurn turn) {
            turn.rate().quotaFields().forEach(ctx::header);
        }

        @Override
        public void onEvent(TurnEvent event) {}
    }

    /** How long a write may stay blocked after the turn was cancelled before the connection is closed under it. */
    private static final Duration BLOCKED_WRITE_GRACE = Duration.ofSeconds(1);

    /** Closes the request's connection: a write blocked on it fails at once. */
    private static void abort(Context ctx) {
        ServletContextRequest.getServletContextRequest(ctx.req())
                .getServletChannel()
                .getEndPoint()
                .close(new java.io.IOException("the turn was cancelled while the client was not reading"));
    }

    /** SSE mode: the stream starts once the turn is admitted (refusals before that are plain JSON errors). */
    private static final class StreamingListener implements TurnListener, AutoCloseable {
        private final Context ctx;
        private final Duration heartbeat;
        private SseWriter writer;

        StreamingListener(Context ctx, Duration heartbeat) {
            this.ctx = ctx;
            this.heartbeat = heartbeat;
        }

        @Override
        public void admitted(AdmittedTurn turn) {
            turn.rate().quotaFields().forEach(ctx::header);
            ctx.status(200);
            ctx.contentType("text/event-stream; charset=utf-8");
            ctx.header("Cache-Control", "no-cache");
            ctx.header("X-Accel-Buffering", "no");
            try {
                writer = new SseWriter(
                        ctx.res().getOutputStream(), heartbeat, turn.cancellation()::cancel, () -> abort(ctx));
            } catch (IOException e) {
                turn.cancellation().cancel();
                throw new UncheckedIOException(e);
            }
            SseWriter w = writer;
            // a deadline or a cancel must end the turn even while a write to a client that stopped reading blocks
            turn.cancellation().onCancel(() -> w.abortIfBlocked(BLOCKED_WRITE_GRACE));
        }

        @Override
        public void onEvent(TurnEvent event) {
            if (writer != null) SseEvents.send(writer, event);
        }

        @Override
        public void close() {
            if (writer != null) writer.close();
        }
    }

    private static ObjectNode messageResponse(TurnOutcome o) {
        ObjectNode n = Json.MAPPER
                .createObjectNode()
                .put("messageId", o.assistantMessage().id())
                .put("answer", o.assistantMessage().content());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(Views.toolCall(c)));
        n.set("usage", SseEvents.usage(o.usage()));
        n.put("model", o.model());
        stopReason(n, o);
        return n;
    }

    private static ObjectNode chatResponse(String conversationId, TurnOutcome o) {
        ObjectNode n = Json.MAPPER
                .createObjectNode()
                .put("conversationId", conversationId)
                .put("turnId", o.assistantMessage().id())
                .put("answer", o.assistantMessage().content());
        ArrayNode calls = n.putArray("toolCalls");
        o.toolCalls().forEach(c -> calls.add(Views.toolCall(c)));
        n.set("usage", SseEvents.usage(o.usage()));
        stopReason(n, o);
        return n;
    }

    /** Why the turn stopped, as in the SSE {@code done} event. */
    private static void stopReason(ObjectNode n, TurnOutcome o) {
        if (o.terminal() instanceof TurnEvent.Done done) n.put("stopReason", done.stopReason());
    }

    private static boolean wantsSse(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains("text/event-stream");
    }
}
