package dev.baton.runtime.session;

import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Session;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where sessions start and end: the terms a session started under and the conditional completions, each of which
 * reports a session it ended exactly once even when several instances race (only the call that changed the row gets
 * the session back). The JDBC store implements it for SQLite and PostgreSQL; {@link #inMemory} keeps sessions in this
 * process.
 */
public interface SessionLifecycleStore {

    /**
     * Sessions' starts and ends in this process's memory, over the in-memory store that keeps their conversations
     * (tests and small embedded programs; nothing survives the process).
     */
    static SessionLifecycleStore inMemory(InMemoryConversationStore conversations) {
        return new InMemorySessionLifecycle(conversations);
    }

    /** Completed by its user. */
    String USER = "user";
    /** The turn that used the last allowed user message completed it. */
    String MAX_MESSAGES = "max_messages";
    /** It outlived its maximum duration. */
    String MAX_SESSION_DURATION = "max_session_duration";
    /** The sweep found it idle for longer than its inactivity timeout. */
    String INACTIVITY = "inactivity";

    /** Stores a new session together with its terms, atomically. */
    void start(Session session, SessionTerms terms);

    /** The terms the user's session started under; empty when it is not theirs. */
    Optional<SessionTerms> terms(String userId, String sessionId);

    /** Completes the user's active session with {@code reason}; empty when it is not theirs or already completed. */
    Optional<EndedSession> complete(String userId, String sessionId, Instant now, String reason);

    /** Completes the user's active session if its maximum duration has run out by {@code now}. */
    Optional<EndedSession> completeIfExpired(String userId, String sessionId, Instant now);

    /** Completes the user's active session if it holds as many user messages as its limit allows. */
    Optional<EndedSession> completeIfMessagesReached(String userId, String sessionId, Instant now);

    /**
     * Completes up to {@code limit} active sessions idle longer than their own inactivity timeout, or whose maximum
     * duration has run out.
     *
     * @param shortestInactivityTimeout the shortest timeout any session may have: sessions active more recently
     *     than {@code now} minus it need not be read
     * @return the sessions this call completed (reason {@value #INACTIVITY} or {@value #MAX_SESSION_DURATION})
     */
    List<EndedSession> sweep(Instant now, Duration shortestInactivityTimeout, int limit);
}
