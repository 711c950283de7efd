package dev.baton.runtime.conversation;

import dev.baton.core.id.Ids;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.admission.IdempotencyKey;
import java.util.Objects;
import java.util.function.Function;

/**
 * How to send one message.
 *
 * @param requestId ties the turn's logs, metrics and traces to the request that caused it
 * @param idempotencyKey the client's key, or null for none
 * @param replayBody renders a successful turn as the response a retry with the same key is answered with (the front
 *     door's own wire: the runtime stores it and gives it back as {@link SendResult.Replayed}); required with a key
 */
public record SendOptions(String requestId, IdempotencyKey idempotencyKey, Function<TurnOutcome, String> replayBody) {
    public SendOptions {
        Objects.requireNonNull(requestId, "requestId");
        if (idempotencyKey != null) Objects.requireNonNull(replayBody, "replayBody");
    }

    /** No idempotency key. */
    public static SendOptions of(String requestId) {
        return new SendOptions(requestId, null, null);
    }

    /** No idempotency key, and a new request id (for callers that have none of their own). */
    public static SendOptions withNewRequestId() {
        return of(Ids.newId());
    }
}
