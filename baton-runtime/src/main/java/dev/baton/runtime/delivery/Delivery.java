package dev.baton.runtime.delivery;

import java.util.Objects;

/**
 * What a background job asks to put into one of a user's sessions.
 *
 * @param tenantId the user's tenant
 * @param userId the user the session must belong to
 * @param sessionId the session
 * @param content the assistant message's text (Markdown)
 * @param source what delivers it (for example {@code learning.content})
 */
public record Delivery(String tenantId, String userId, String sessionId, String content, String source) {
    /** The longest message a delivery stores, in characters; longer material is cut with a note. */
    public static final int MAX_CONTENT = 100_000;

    public Delivery {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(source, "source");
        if (content.isBlank()) throw new IllegalArgumentException("a delivered message needs content");
    }
}
