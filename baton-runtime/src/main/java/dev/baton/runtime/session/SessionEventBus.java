package dev.baton.runtime.session;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each session event to every listener in the order they were added. A listener that throws is logged and
 * skipped: a broken module must neither stop a session from starting or ending nor keep other listeners from
 * hearing about it.
 */
public final class SessionEventBus implements SessionEvents {
    private static final Logger log = LoggerFactory.getLogger(SessionEventBus.class);

    private final List<SessionEvents> listeners = new CopyOnWriteArrayList<>();

    /** Adds a listener (the module pipeline's session hooks, metrics, a test's recorder). */
    public SessionEventBus add(SessionEvents listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    @Override
    public void started(Session session, Principal principal) {
        for (SessionEvents l : listeners) {
            try {
                l.started(session, principal);
            } catch (RuntimeException e) {
                log.warn("session {}: a session:start listener failed: {}", session.id(), e.toString());
            }
        }
    }

    @Override
    public void ended(Session session, EndReason reason) {
        for (SessionEvents l : listeners) {
            try {
                l.ended(session, reason);
            } catch (RuntimeException e) {
                log.warn("session {}: a session:end listener failed: {}", session.id(), e.toString());
            }
        }
    }
}
