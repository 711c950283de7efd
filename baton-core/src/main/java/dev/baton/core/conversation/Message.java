package dev.baton.core.conversation;

import java.time.Instant;
import java.util.Objects;

/**
 * A stored message. {@code seq} orders messages within a session and is assigned by the store.
 *
 * @param model the model that produced an assistant message; null for user messages
 */
public record Message(
        String id,
        String sessionId,
        String userId,
        long seq,
        MessageRole role,
        String content,
        MessageStatus status,
        String model,
        Instant createdAt) {

    public Message {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
