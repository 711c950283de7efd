package dev.baton.store.jdbc;

import dev.baton.core.conversation.Session;
import java.util.Objects;

/**
 * A session this call completed, with why.
 *
 * @param reason the stored end reason: {@value JdbcSessionLifecycle#USER}, {@value JdbcSessionLifecycle#MAX_MESSAGES},
 *     {@value JdbcSessionLifecycle#MAX_SESSION_DURATION} or {@value JdbcSessionLifecycle#INACTIVITY}
 */
public record EndedSession(Session session, String reason) {
    public EndedSession {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(reason, "reason");
    }
}
