package dev.baton.runtime.session;

import dev.baton.core.auth.Principal;
import java.util.List;
import java.util.Objects;

/**
 * Searching one's own earlier conversations. Acts as the principal: needs {@value #PERMISSION}, and only ever
 * sees that principal's conversations (tenant and user come from the principal, never from a request).
 */
public final class PriorSessions {
    public static final String PERMISSION = "sessions:read:self";
    public static final int MAX_RESULTS = 10;

    private final ConversationSearch search;

    public PriorSessions(ConversationSearch search) {
        this.search = Objects.requireNonNull(search, "search");
    }

    /** Thrown when the caller may not search or asked for nothing searchable; the message is safe to show. */
    public static final class Refused extends RuntimeException {
        private final String code;

        Refused(String code, String message) {
            super(message);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * @param currentSessionId the session asking, left out of the results; null for none
     * @param limit 1..{@value #MAX_RESULTS}
     */
    public List<SearchHit> search(Principal principal, String query, String currentSessionId, int limit) {
        if (!principal.hasPermission(PERMISSION))
            throw new Refused("permission_denied", "You are not allowed to do this (needs " + PERMISSION + ").");
        if (ConversationSearch.terms(query).isEmpty())
            throw new Refused("invalid_argument", "query must contain at least one word");
        int bounded = Math.max(1, Math.min(limit, MAX_RESULTS));
        return search.search(principal.tenantId(), principal.userId(), query, currentSessionId, bounded);
    }
}
