package dev.baton.runtime.session;

import dev.baton.core.conversation.Session;
import java.util.Objects;

/**
 * A session this call completed, with why.
 *
 * @param reason the stored end reason: {@value SessionLifecycleStore#USER}, {@value SessionLifecycleStore#MAX_MESSAGES},
 *     {@value SessionLifecycleStore#MAX_SESSION_DURATION} or {@value SessionLifecycleStore#INACTIVITY}
 */
public record EndedSession(Session session, String reason) {
    public EndedSession {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(reason, "reason");
    }
}
