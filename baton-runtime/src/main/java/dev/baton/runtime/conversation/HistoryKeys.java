package dev.baton.runtime.conversation;

import java.time.Instant;
import java.util.Optional;

/**
 * Which session a conversation history belongs to, for front doors whose clients send the whole history with every
 * message (OpenAI's Chat Completions) instead of naming a session: after each turn the door records a digest of the
 * history so far (the client's messages and the answer) against the session, and the next request's history, minus
 * its new message, finds the session by the same digest. Only digests are kept, never the messages: the session's
 * messages are stored once, in the conversation store.
 *
 * <p>Keys are per user: a digest recorded for one user is never found for another. Recording the same digest again
 * points it at the newer session (a client that edited a message and went on from there).
 */
public interface HistoryKeys {

    /**
     * Where a history ends in its session.
     *
     * @param seq the position of the session's message the history ends with (the answer); null when the turn paused
     *     before answering
     */
    record Position(String sessionId, Long seq) {
        public Position {
            java.util.Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /** Where {@code userId}'s history with this digest ends, if it was recorded. */
    Optional<Position> find(String userId, String digest);

    /** Records that {@code userId}'s history with this digest ends at {@code position}. */
    void record(String userId, String digest, Position position, Instant at);

    /** Forgets digests recorded before the cutoff. Returns how many. */
    int deleteOlderThan(Instant cutoff);

    /** Digests held in memory, for a Baton with no database (tests, a library's quick start). */
    static HistoryKeys inMemory() {
        return new InMemoryHistoryKeys();
    }
}
