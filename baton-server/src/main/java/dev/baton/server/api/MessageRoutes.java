package dev.baton.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.approval.ApprovalDecision;
import dev.baton.runtime.approval.ApprovalResult;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventRecorder;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.QuotaHeaders;
import dev.baton.server.http.RequestBody;
import dev.baton.server.http.RequestIds;
import dev.baton.server.http.SseStreams;
import dev.baton.server.http.SseTurnListener;
import dev.baton.wire.SseEvents;
import dev.baton.wire.TurnAnswers;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.function.Function;

/**
 * {@code POST /v1/sessions/{id}/messages}, the one-shot {@code POST /v1/chat} and the decision on a held tool call
 * {@code POST /v1/sessions/{id}/approvals/{callId}}: the HTTP wire around {@link Conversations} and
 * {@link Approvals}. Answers as SSE ({@code Accept: text/event-stream}) or as one JSON document; every rule (input,
 * idempotency, limits, budgets, session state, one turn per session, deadlines, approvals) is the runtime's.
 */
public final class MessageRoutes {

    private final Conversations conversations;
    /** Null: no approvals endpoint. */
    private final Approvals approvals;
    /** Where every event of a turn is kept for replay; null: nowhere. */
    private final TurnEventLog events;

    private final int maxBodyBytes;
    private final SseStreams streams;

    /** The header that asks for a stream the turn outlives: a dropped connection does not cancel it. */
    public static final String RESUMABLE = "Baton-Resumable";

    public MessageRoutes(Conversations conversations, int maxBodyBytes, SseStreams streams) {
        this(conversations, null, null, maxBodyBytes, streams);
    }

    public MessageRoutes(
            Conversations conversations,
            Approvals approvals,
            TurnEventLog events,
            int maxBodyBytes,
            SseStreams streams) {
        this.conversations = conversations;
        this.approvals = approvals;
        this.events = events;
        this.maxBodyBytes = maxBodyBytes;
        this.streams = streams;
    }

    record SendMessage(String content) {}

    record ChatRequest(String message, String conversationId, String agentId, Boolean stream) {}

    record Decide(String decision, JsonNode arguments, String comment) {}

    public void register(RoutesConfig routes) {
        routes.post("/v1/sessions/{id}/messages", this::send);
        routes.post("/v1/chat", this::chat);
        if (approvals != null) routes.post("/v1/sessions/{id}/approvals/{callId}", this::decide);
    }

    /**
     * A decision on a held tool call. The last decision a paused turn waited for goes on with it, answered like a
     * message (SSE or JSON); an earlier one is recorded and answered 202 with what still waits.
     */
    private void decide(Context ctx) throws IOException {
        var caller = Caller.with(ctx, Sessions.WRITE);
        String raw = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        Decide body = RequestBody.bind(RequestBody.parseObject(raw), Decide.class);
        boolean approve;
        if ("approve".equals(body.decision())) approve = true;
        else if ("deny".equals(body.decision())) approve = false;
        else throw new ApiException(400, "invalid_request", "field 'decision' must be \"approve\" or \"deny\"");
        JsonNode arguments = body.arguments() == null || body.arguments().isNull() ? null : body.arguments();
        var decision = new ApprovalDecision(approve, arguments, body.comment());
        boolean sse = wantsSse(ctx);
        TurnEventRecorder recorder = new TurnEventRecorder(events, caller);
        SseTurnListener listener = sse ? streaming(ctx, recorder) : null;
        ApprovalResult result;
        try {
            result = approvals.decide(
                    caller,
                    ctx.pathParam("id"),
                    ctx.pathParam("callId"),
                    decision,
                    SendOptions.of(ctx.attribute(RequestIds.ATTRIBUTE)),
                    listener != null ? listener : new QuotaHeaders(ctx, recorder::record));
        } finally {
            if (listener != null) listener.close();
        }
        switch (result) {
            case ApprovalResult.Resumed resumed -> answer(ctx, sse, false, resumed.ran());
            case ApprovalResult.Recorded recorded -> {
                ctx.status(202).json(TurnAnswers.recorded(recorded));
            }
        }
    }

    private void send(Context ctx) throws IOException {
        var caller = Caller.with(ctx, Sessions.WRITE);
        String raw = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        SendMessage body = RequestBody.bind(RequestBody.parseObject(raw), SendMessage.class);
        SendOptions options = options(ctx, raw);
        respond(
                ctx,
                wantsSse(ctx),
                false,
                new TurnEventRecorder(events, caller),
                listener -> conversations.send(caller, ctx.pathParam("id"), body.content(), options, listener));
    }

    private void chat(Context ctx) throws IOException {
        var caller = Caller.with(ctx, Sessions.WRITE);
        String raw = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        ChatRequest body = RequestBody.bind(RequestBody.parseObject(raw), ChatRequest.class);
        boolean sse = body.stream() != null ? body.stream() : wantsSse(ctx);
        var target = new Conversations.ChatTarget(body.conversationId(), body.agentId());
        SendOptions options = options(ctx, raw);
        respond(
                ctx,
                sse,
                true,
                new TurnEventRecorder(events, caller),
                listener -> conversations.chat(caller, target, body.message(), options, listener));
    }

    private static SendOptions options(Context ctx, String raw) {
        String key = ctx.header("Idempotency-Key");
        String requestId = ctx.attribute(RequestIds.ATTRIBUTE);
        if (key == null) return SendOptions.of(requestId);
        return new SendOptions(requestId, new IdempotencyKey(key, raw));
    }

    /** Runs the send with a listener that streams (SSE) or collects nothing (JSON), then answers. */
    private void respond(
            Context ctx,
            boolean sse,
            boolean chatShape,
            TurnEventRecorder recorder,
            Function<TurnListener, SendResult> send) {
        SseTurnListener listener = sse ? streaming(ctx, recorder) : null;
        SendResult result;
        try {
            result = send.apply(listener != null ? listener : new QuotaHeaders(ctx, recorder::record));
        } finally {
            // the heartbeat must stop whatever happened after the stream began
            if (listener != null) listener.close();
        }
        answer(ctx, sse, chatShape, result);
    }

    private static void answer(Context ctx, boolean sse, boolean chatShape, SendResult result) {
        switch (result) {
            case SendResult.Replayed r -> {
                // answered as JSON whatever was asked for: a stream cannot be sent again; the replayed body names
                // the conversation the first attempt created
                ctx.header("Idempotent-Replayed", "true");
                TurnOutcome o = r.outcome();
                ctx.json(chatShape ? TurnAnswers.chat(o.userMessage().sessionId(), o) : TurnAnswers.message(o));
            }
            case SendResult.Ran ran when sse -> {} // the stream said it all, its terminal event included
            case SendResult.Ran ran -> {
                if (ran.outcome().terminal() instanceof TurnEvent.Failed f) {
                    ErrorResponses.turnFailed(ctx, f);
                    return;
                }
                ctx.json(
                        chatShape
                                ? TurnAnswers.chat(ran.session().id(), ran.outcome())
                                : TurnAnswers.message(ran.outcome()));
            }
        }
    }

    private static boolean resumable(Context ctx) {
        return "true".equalsIgnoreCase(ctx.header(RESUMABLE));
    }

    /**
     * SSE in Baton's own wire: each event is kept under the id it is sent with, so a client can take the stream up
     * again; a client that goes away cancels the turn unless it asked for a resumable stream.
     */
    private SseTurnListener streaming(Context ctx, TurnEventRecorder recorder) {
        return new SseTurnListener(
                ctx,
                streams,
                (writer, event) -> {
                    long id = recorder.record(event);
                    SseEvents.Rendered rendered = SseEvents.render(event);
                    writer.send(id, rendered.type(), rendered.json());
                },
                !resumable(ctx));
    }

    private static boolean wantsSse(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains("text/event-stream");
    }
}
