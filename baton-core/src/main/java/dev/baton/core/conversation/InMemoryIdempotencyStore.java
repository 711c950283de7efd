package dev.baton.core.conversation;

import static dev.baton.core.conversation.InMemoryRows.truncate;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link IdempotencyStore} in memory, beside {@link InMemoryConversationStore} for tests and small embedded
 * programs: nothing survives the process. It keeps the rules of the JDBC store, and the same contract suite checks
 * both (baton-testkit's {@code IdempotencyStoreContract}): a key keeps its first response per user, a claim is
 * completed or released only while in progress, and instants come back truncated to the microsecond.
 *
 * <p>Thread-safe: every operation holds one lock. Memory grows with the keys kept until {@link #deleteOlderThan}.
 */
public final class InMemoryIdempotencyStore implements IdempotencyStore {
    private final Object lock = new Object();
    private final Map<String, StoredResponse> responses = new HashMap<>();

    @Override
    public Optional<StoredResponse> find(String userId, String key) {
        synchronized (lock) {
            return Optional.ofNullable(responses.get(idempotencyKey(userId, key)));
        }
    }

    @Override
    public boolean save(String userId, String key, StoredResponse response) {
        Objects.requireNonNull(response.requestHash(), "requestHash");
        Objects.requireNonNull(response.createdAt(), "createdAt");
        StoredResponse stored = new StoredResponse(
                response.requestHash(), response.status(), response.body(), truncate(response.createdAt()));
        synchronized (lock) {
            return responses.putIfAbsent(idempotencyKey(userId, key), stored) == null;
        }
    }

    @Override
    public boolean claim(String userId, String key, String requestHash, Instant now, Instant staleBefore) {
        if (claim(userId, key, requestHash, now)) return true;
        synchronized (lock) {
            String k = idempotencyKey(userId, key);
            StoredResponse r = responses.get(k);
            if (r == null
                    || !r.inProgress()
                    || !r.requestHash().equals(requestHash)
                    || !r.createdAt().isBefore(staleBefore)) return false;
            responses.put(k, new StoredResponse(requestHash, IN_PROGRESS, null, truncate(now)));
            return true;
        }
    }

    @Override
    public void complete(String userId, String key, int status, String body) {
        synchronized (lock) {
            responses.computeIfPresent(
                    idempotencyKey(userId, key),
                    (k, r) -> r.inProgress() ? new StoredResponse(r.requestHash(), status, body, r.createdAt()) : r);
        }
    }

    @Override
    public void release(String userId, String key) {
        synchronized (lock) {
            responses.computeIfPresent(idempotencyKey(userId, key), (k, r) -> r.inProgress() ? null : r);
        }
    }

    @Override
    public int deleteOlderThan(Instant cutoff) {
        synchronized (lock) {
            int before = responses.size();
            responses.values().removeIf(r -> r.createdAt().isBefore(cutoff));
            return before - responses.size();
        }
    }

    private static String idempotencyKey(String userId, String key) {
        return userId + '\u0000' + key;
    }
}
