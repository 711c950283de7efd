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
 */
public record SendOptions(String requestId, IdempotencyKey idempotencyKey) {
    public SendOptions {
        Objects.requireNonNull(requestId, "requestId");
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
