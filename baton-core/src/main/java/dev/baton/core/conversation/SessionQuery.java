package dev.baton.core.conversation;

/**
 * Filter for listing a user's sessions. Null fields do not filter.
 *
 * @param cursor opaque cursor from a previous page
 */
public record SessionQuery(String agentId, SessionState state, int limit, String cursor) {
    public SessionQuery {
        if (limit < 1 || limit > 100) throw new IllegalArgumentException("limit must be 1..100");
    }
}
