package dev.baton.learning.memory;

import java.time.Instant;

/** The learning agents' conversations that outlived the retention age, as the retention job deletes them. */
@FunctionalInterface
public interface ExpiredConversations {
    ExpiredConversations NONE = (inactiveSince, limit) -> 0;

    /**
     * Deletes at most {@code limit} conversations whose last activity was before {@code inactiveSince}, oldest first.
     *
     * @return how many were deleted
     */
    int purge(Instant inactiveSince, int limit);
}
