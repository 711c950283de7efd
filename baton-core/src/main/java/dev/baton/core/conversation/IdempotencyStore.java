package dev.baton.core.conversation;

import java.time.Instant;
import java.util.Optional;

/** Remembers the response to a request sent with an Idempotency-Key, per user. */
public interface IdempotencyStore {

    /** A stored response; {@code requestHash} tells a replay from a different request reusing the key. */
    record StoredResponse(String requestHash, int status, String body, Instant createdAt) {}

    Optional<StoredResponse> find(String userId, String key);

    /** Stores a response once; a second save for the same user and key keeps the first and returns false. */
    boolean save(String userId, String key, StoredResponse response);
}
