package dev.baton.runtime.session;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Objects;
import java.util.Optional;

/**
 * The terms sessions started under, kept after the first read: they are written once, when the session starts, and
 * never change, so any instance may keep them and every turn of a session after its first skips reading them. The
 * cache answers only the session's own user; anyone else's lookup goes to the store, which refuses it as before.
 * Sessions without recorded terms (started before they were stored) are not kept: their configuration comes from the
 * agent as configured now.
 */
final class StartedTerms {
    /** Sessions with a turn lately; at well under a kilobyte each, a bounded few megabytes. */
    private static final int SESSIONS_KEPT = 10_000;

    private final SessionLifecycleStore store;
    private final Cache<String, Owned> bySession =
            Caffeine.newBuilder().maximumSize(SESSIONS_KEPT).build();

    StartedTerms(SessionLifecycleStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Keeps the terms of a session just started, so its first turn reads nothing either. */
    void started(String userId, String sessionId, SessionTerms terms) {
        if (terms.configJson() != null) bySession.put(sessionId, new Owned(userId, terms));
    }

    /** The terms the user's session started under; empty when it is not theirs. */
    Optional<SessionTerms> of(String userId, String sessionId) {
        Owned kept = bySession.getIfPresent(sessionId);
        if (kept != null && kept.userId().equals(userId)) return Optional.of(kept.terms());
        Optional<SessionTerms> read = store.terms(userId, sessionId);
        read.ifPresent(terms -> started(userId, sessionId, terms));
        return read;
    }

    private record Owned(String userId, SessionTerms terms) {}
}
