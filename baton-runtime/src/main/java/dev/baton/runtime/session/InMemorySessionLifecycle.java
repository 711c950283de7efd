package dev.baton.runtime.session;

import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Session;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;

/**
 * Sessions' starts and ends over an {@link InMemoryConversationStore}: the store keeps the sessions and completes
 * them under its lock (so each end is reported once), this keeps the terms they started under.
 */
final class InMemorySessionLifecycle implements SessionLifecycleStore {

    /** The inactivity timeout of a session stored without terms, as the JDBC store assumes. */
    private static final Duration DEFAULT_INACTIVITY = Duration.ofHours(24);

    private final InMemoryConversationStore conversations;
    private final Map<String, SessionTerms> terms = new ConcurrentHashMap<>();

    InMemorySessionLifecycle(InMemoryConversationStore conversations) {
        this.conversations = Objects.requireNonNull(conversations, "conversations");
    }

    @Override
    public void start(Session session, SessionTerms sessionTerms) {
        Objects.requireNonNull(sessionTerms, "terms");
        conversations.createSession(session);
        terms.put(session.id(), sessionTerms);
    }

    @Override
    public Optional<SessionTerms> terms(String userId, String sessionId) {
        if (conversations.findSession(userId, sessionId).isEmpty()) return Optional.empty();
        return Optional.of(termsOf(sessionId));
    }

    @Override
    public Optional<EndedSession> complete(String userId, String sessionId, Instant now, String reason) {
        return end(userId, sessionId, now, reason, (s, userMessages) -> true);
    }

    @Override
    public Optional<EndedSession> completeIfExpired(String userId, String sessionId, Instant now) {
        return end(userId, sessionId, now, MAX_SESSION_DURATION, (s, userMessages) -> expired(s, now));
    }

    @Override
    public Optional<EndedSession> completeIfMessagesReached(String userId, String sessionId, Instant now) {
        return end(userId, sessionId, now, MAX_MESSAGES, (s, userMessages) -> {
            Integer max = termsOf(s.id()).maxMessages();
            return max != null && userMessages >= max;
        });
    }

    @Override
    public List<EndedSession> sweep(Instant now, Duration shortestInactivityTimeout, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1");
        List<EndedSession> ended = new ArrayList<>();
        for (Session s : conversations.activeSessions()) {
            if (ended.size() == limit) break;
            String reason = expired(s, now) ? MAX_SESSION_DURATION : INACTIVITY;
            end(s.userId(), s.id(), now, reason, (current, userMessages) -> due(current, now))
                    .ifPresent(ended::add);
        }
        return ended;
    }

    private Optional<EndedSession> end(
            String userId, String sessionId, Instant now, String reason, BiPredicate<Session, Integer> when) {
        return conversations
                .completeSessionIf(userId, sessionId, now, reason, when)
                .map(s -> new EndedSession(s, reason));
    }

    private boolean due(Session s, Instant now) {
        Duration idle = Duration.between(s.lastActivityAt(), now);
        return expired(s, now) || idle.compareTo(termsOf(s.id()).inactivityTimeout()) >= 0;
    }

    private boolean expired(Session s, Instant now) {
        Instant expiresAt = termsOf(s.id()).expiresAt();
        return expiresAt != null && !expiresAt.isAfter(now);
    }

    private SessionTerms termsOf(String sessionId) {
        return terms.getOrDefault(sessionId, new SessionTerms(null, null, null, DEFAULT_INACTIVITY));
    }
}
