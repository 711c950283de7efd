package dev.baton.runtime.delivery;

import dev.baton.core.conversation.Message;
import java.util.Objects;

/**
 * An assistant message put into a session outside a turn (material a background job prepared), as stored.
 *
 * @param tenantId the tenant of the session's user
 * @param agentId the session's agent
 * @param source what delivered it (for example {@code learning.content}), for clients and logs
 * @param message the stored message, with its seq
 */
public record DeliveredMessage(String tenantId, String agentId, String source, Message message) {
    public DeliveredMessage {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(message, "message");
    }

    public String userId() {
        return message.userId();
    }

    public String sessionId() {
        return message.sessionId();
    }
}
