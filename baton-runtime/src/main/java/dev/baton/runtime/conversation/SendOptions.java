package dev.baton.runtime.conversation;

import dev.baton.core.id.Ids;
import dev.baton.runtime.admission.IdempotencyKey;
import java.util.Objects;

/**
 * How to send one message.
 *
 * @param requestId ties the turn's logs, metrics and traces to the request that caused it
 * @param idempotencyKey the client's key, or null for none: a retry with the same key is answered with the first
 *     turn's outcome ({@link SendResult.Replayed}), which the front door renders as it renders a fresh one
 * @param answersHeldCalls null for an ordinary message, which supersedes the calls a paused turn waits on; else the
 *     message answers them in words with neither yes nor no: they are recorded as denied by the sender with this
 *     comment (see {@code approval.ConversationalConfirmation})
 */
public record SendOptions(String requestId, IdempotencyKey idempotencyKey, String answersHeldCalls) {
    public SendOptions {
        Objects.requireNonNull(requestId, "requestId");
    }

    /** An ordinary message. */
    public SendOptions(String requestId, IdempotencyKey idempotencyKey) {
        this(requestId, idempotencyKey, null);
    }

    /** These options, the message answering the held calls with neither yes nor no ({@code comment} kept). */
    public SendOptions answeringHeldCalls(String comment) {
        return new SendOptions(requestId, idempotencyKey, Objects.requireNonNull(comment, "comment"));
    }

    /** No idempotency key. */
    public static SendOptions of(String requestId) {
        return new SendOptions(requestId, null);
    }

    /** No idempotency key, and a new request id (for callers that have none of their own). */
    public static SendOptions withNewRequestId() {
        return of(Ids.newId());
    }
}
