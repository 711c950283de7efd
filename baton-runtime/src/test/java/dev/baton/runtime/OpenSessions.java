package dev.baton.runtime;

import dev.baton.core.conversation.Session;
import dev.baton.runtime.session.EndedSession;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.SessionTerms;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A session store for runtime tests: sessions start (handed to {@code onStart}) and never end. Tests that need more
 * override what they need.
 */
public class OpenSessions implements SessionLifecycleStore {
    private final Consumer<Session> onStart;

    public OpenSessions(Consumer<Session> onStart) {
        this.onStart = onStart;
    }

    @Override
    public void start(Session session, SessionTerms terms) {
        onStart.accept(session);
    }

    @Override
    public Optional<SessionTerms> terms(String userId, String sessionId) {
        return Optional.empty();
    }

    @Override
    public Optional<EndedSession> complete(String userId, String sessionId, Instant now, String reason) {
        return Optional.empty();
    }

    @Override
    public Optional<EndedSession> completeIfExpired(String userId, String sessionId, Instant now) {
        return Optional.empty();
    }

    @Override
    public Optional<EndedSession> completeIfMessagesReached(String userId, String sessionId, Instant now) {
        return Optional.empty();
    }

    @Override
    public List<EndedSession> sweep(Instant now, Duration shortestInactivityTimeout, int limit) {
        return List.of();
    }
}
