package dev.baton.core.tool.account;

import java.time.Instant;
import java.util.Objects;

/**
 * A user's tokens for their own account on one tool server, sealed (encrypted and authenticated) before they reach a
 * store: a store never sees a token in the clear.
 *
 * @param server the tool server's configured name
 * @param sealed the encrypted tokens, as the sealing side wrote them (it names its key, so keys can be rotated)
 * @param connectedAt when the user connected the account
 * @param updatedAt when the tokens were last replaced (connected, or refreshed)
 */
public record AccountToken(
        String tenantId, String userId, String server, String sealed, Instant connectedAt, Instant updatedAt) {
    public AccountToken {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(sealed, "sealed");
        Objects.requireNonNull(connectedAt, "connectedAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    @Override
    public String toString() {
        return "AccountToken[" + tenantId + "/" + userId + " on " + server + ", updated " + updatedAt + "]";
    }
}
