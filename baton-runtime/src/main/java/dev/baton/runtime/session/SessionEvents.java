package dev.baton.runtime.session;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;

/**
 * What happens to sessions as a whole: the {@code session:start} and {@code session:end} moments the module
 * pipeline hooks into. Called after the change is committed; an implementation must not block for long (the
 * sweep calls it once per session it ended) and whatever it throws is logged and ignored.
 */
public interface SessionEvents {

    /** Events nobody listens to. */
    SessionEvents NONE = new SessionEvents() {};

    /** A session was started by {@code principal}. */
    default void started(Session session, Principal principal) {}

    /**
     * A session was completed, by its user or by one of its limits. The principal is not known when the background
     * sweep ends a session, so only the session (with its user id) is given.
     */
    default void ended(Session session, EndReason reason) {}
}
