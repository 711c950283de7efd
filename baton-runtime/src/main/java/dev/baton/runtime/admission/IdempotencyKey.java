package dev.baton.runtime.admission;

import dev.baton.runtime.RefusalException;
import java.util.Objects;

/**
 * A client's idempotency key for one request, with a fingerprint of what the request asks (e.g. a hash of its
 * body): the same key with another fingerprint, or for another target, is a different request reusing the key.
 *
 * @param key 1 to 200 characters, chosen by the client
 * @param fingerprint what identifies the request's content; compared, never interpreted
 */
public record IdempotencyKey(String key, String fingerprint) {
    public static final int MAX_LENGTH = 200;

    /** @throws RefusalException {@link dev.baton.runtime.Refusal.InvalidInput} for an empty or overlong key */
    public IdempotencyKey {
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (key == null || key.isBlank() || key.length() > MAX_LENGTH)
            throw RefusalException.invalidInput("Idempotency-Key must be 1-" + MAX_LENGTH + " characters");
    }
}
