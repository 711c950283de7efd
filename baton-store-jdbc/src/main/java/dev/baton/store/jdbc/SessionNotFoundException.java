package dev.baton.store.jdbc;

import java.util.NoSuchElementException;

/**
 * A write named a session that does not exist or belongs to another user. It extends
 * {@link NoSuchElementException} so callers that cannot see this module (the core) can still tell "not
 * found" from a database failure; the message never says which of the two cases it was.
 */
public final class SessionNotFoundException extends NoSuchElementException {

    public SessionNotFoundException(String sessionId) {
        super("session not found: " + sessionId);
    }
}
