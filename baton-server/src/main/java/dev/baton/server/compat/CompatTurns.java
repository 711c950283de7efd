package dev.baton.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.approval.ConfirmedTurn;
import dev.baton.runtime.approval.ConversationalConfirmation;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.server.http.Caller;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.Json;
import dev.baton.server.http.QuotaHeaders;
import dev.baton.server.http.RequestBody;
import dev.baton.server.http.RequestIds;
import dev.baton.server.http.SseStreams;
import dev.baton.server.http.SseTurnListener;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Optional;

/**
 * What the designs' APIs share: read a body under the input rules, run one turn through {@link Conversations#chat}
 * (every rule is the runtime's), and hand the outcome back for the front door's own JSON, or stream it in the front
 * door's own SSE wire. Statuses come from {@link ErrorResponses} only.
 */
final class CompatTurns {
    private final Conversations conversations;
    /** Null: a paused call answers 202 with the calls to decide through the v1 API. */
    private final ConversationalConfirmation confirmation;

    private final int maxBodyBytes;
    private final SseStreams streams;

    /**
     * @param confirmation asks and decides held calls in words (the runtime's rules); null for the 202 answer
     */
    CompatTurns(
            Conversations conversations,
            ConversationalConfirmation confirmation,
            int maxBodyBytes,
            SseStreams streams) {
        this.conversations = conversations;
        this.confirmation = confirmation;
        this.maxBodyBytes = maxBodyBytes;
        this.streams = streams;
    }

    /** The caller, who must be allowed to chat. */
    static Principal caller(Context ctx) {
        return Caller.with(ctx, Sessions.WRITE);
    }

    /** The request's JSON object body (size, UTF-8, NUL and JSON checked). */
    JsonNode body(Context ctx) {
        try {
            return RequestBody.parseObject(
                    RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes));
        } catch (IOException e) {
            throw new dev.baton.server.http.ApiException(400, "invalid_request", "could not read the request body");
        }
    }

    /**
     * Runs the turn for one JSON answer.
     *
     * @return the reply, or empty when the turn failed or paused and that was already answered: a failure as the
     *     one error body; a pause (a tool call waiting for the user's approval, which these designs have no word
     *     for), with approval in words, is a reply (the question), else 202 with the calls to decide through
     *     {@code POST /v1/sessions/{id}/approvals/{callId}}
     */
    Optional<CompatReply> json(Context ctx, Principal caller, Conversations.ChatTarget target, String message) {
        if (confirmation != null) {
            ConfirmedTurn turn = confirmation.chat(caller, target, message, options(ctx), new QuotaHeaders(ctx));
            if (turn instanceof ConfirmedTurn.Answered answered
                    && answered.outcome().terminal() instanceof TurnEvent.Failed failed) {
                ErrorResponses.turnFailed(ctx, failed);
                return Optional.empty();
            }
            return Optional.of(CompatReply.of(turn));
        }
        SendResult result = conversations.chat(caller, target, message, options(ctx), new QuotaHeaders(ctx));
        if (!(result instanceof SendResult.Ran ran)) throw new IllegalStateException("no idempotency key was sent");
        if (ran.outcome().terminal() instanceof TurnEvent.Failed failed) {
            ErrorResponses.turnFailed(ctx, failed);
            return Optional.empty();
        }
        if (ran.outcome().terminal() instanceof TurnEvent.AwaitingApproval paused) {
            ObjectNode body = Json.MAPPER
                    .createObjectNode()
                    .put("state", "awaiting_approval")
                    .put("conversation_id", ran.session().id());
            ArrayNode calls = body.putArray("pending_approvals");
            for (TurnEvent.ApprovalRequired call : paused.pending()) {
                ObjectNode c = calls.addObject()
                        .put("call_id", call.callId())
                        .put("tool", call.name())
                        .put("reason", call.reason())
                        .put("expires_at", call.expiresAt().toString());
                c.set("arguments", call.arguments());
            }
            ctx.status(202).json(body);
            return Optional.empty();
        }
        return Optional.of(CompatReply.of(ran.outcome()));
    }

    /** Runs the turn as an event stream in {@code encoder}'s wire. */
    void stream(
            Context ctx,
            Principal caller,
            Conversations.ChatTarget target,
            String message,
            SseTurnListener.Encoder encoder) {
        stream(ctx, caller, target, message, encoder, null);
    }

    /**
     * Runs the turn as an event stream in {@code encoder}'s wire; with a {@code conversationHeader}, the stream's
     * response names the conversation the turn runs in under that header (set once the turn is admitted, before the
     * first byte of the stream).
     */
    void stream(
            Context ctx,
            Principal caller,
            Conversations.ChatTarget target,
            String message,
            SseTurnListener.Encoder encoder,
            String conversationHeader) {
        try (SseTurnListener sse = new SseTurnListener(ctx, streams, encoder)) {
            TurnListener listener = conversationHeader == null
                    ? sse
                    : new TurnListener() {
                        @Override
                        public void admitted(AdmittedTurn turn) {
                            ctx.header(conversationHeader, turn.session().id());
                            sse.admitted(turn);
                        }

                        @Override
                        public void onEvent(TurnEvent event) {
                            sse.onEvent(event);
                        }
                    };
            if (confirmation != null) confirmation.chat(caller, target, message, options(ctx), listener);
            else conversations.chat(caller, target, message, options(ctx), listener);
        }
    }

    /** Runs the turn with any listener (for a front door that needs both the events and the outcome). */
    SendResult run(
            Context ctx, Principal caller, Conversations.ChatTarget target, String message, TurnListener listener) {
        return conversations.chat(caller, target, message, options(ctx), listener);
    }

    private static SendOptions options(Context ctx) {
        return SendOptions.of(ctx.attribute(RequestIds.ATTRIBUTE));
    }
}
