package dev.baton.core.conversation;

import java.time.Instant;
import java.util.Optional;

/**
 * Remembers the response to a request sent with an Idempotency-Key, per user. A request first claims its key,
 * so a retry that arrives while the first attempt still runs is told so instead of running the turn twice; the
 * claim then either completes with the response or is released when the attempt failed, so it may be retried.
 */
public interface IdempotencyStore {

    /** The status stored while the claiming request still runs. */
    int IN_PROGRESS = 0;

    /** A stored response; {@code requestHash} tells a replay from a different request reusing the key. */
    record StoredResponse(String requestHash, int status, String body, Instant createdAt) {
        public boolean inProgress() {
            return status == IN_PROGRESS;
        }
    }

    Optional<StoredResponse> find(String userId, String key);

    /** Stores a response once; a second save for the same user and key keeps the first and returns false. */
    boolean save(String userId, String key, StoredResponse response);

    /** Claims the key for a request about to run; false when the key is already claimed or answered. */
    default boolean claim(String userId, String key, String requestHash, Instant now) {
        return save(userId, key, new StoredResponse(requestHash, IN_PROGRESS, null, now));
    }

    /**
     * Claims the key for a request about to run, taking over a claim of the same request ({@code requestHash}) that
     * is still in progress but was made before {@code staleBefore}: its request's lease ran out, so the instance that
     * ran it died (a claim is settled when its request ends, and a request ends within its timeout). The claim taken
     * over is dated {@code now}. False when the key is answered, claimed within its lease, or claimed for another
     * request.
     */
    boolean claim(String userId, String key, String requestHash, Instant now, Instant staleBefore);

    /** Stores the response of a claimed key's request. */
    void complete(String userId, String key, int status, String body);

    /** Gives a claimed key up again (the request failed before a response worth replaying). */
    void release(String userId, String key);

    /** Forgets every key claimed before {@code cutoff}; returns how many. */
    int deleteOlderThan(Instant cutoff);
}
