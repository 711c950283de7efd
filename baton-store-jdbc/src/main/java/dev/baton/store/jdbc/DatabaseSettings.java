package dev.baton.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Database} behaves when the database goes away (baton.yaml's {@code database:} section):
 *
 * <pre>{@code
 * database:
 *   connectionTimeout: 1s   # longest wait for a pooled connection before a request fails with 503
 *   breakerOpenFor: 500ms   # after repeated failures, fail at once for this long before trying again
 *   groupCommit: true       # turns writing at the same time share one transaction
 * }</pre>
 *
 * @param connectionTimeout how long a caller waits for a connection from the pool (HikariCP's connectionTimeout;
 *     at least 250 ms); a dead database costs each request at most this long
 * @param breakerOpenFor how long the store's circuit breaker fails every call at once after it opened (three of
 *     the last five calls found the database unavailable); then one call probes, and its outcome closes or re-opens
 *     the breaker. Recovery after the database returns takes at most about this long.
 * @param groupCommit whether a turn's writes ({@link Database#inSharedTransaction}) made at the same time as other
 *     turns' share their transaction and its commit; off, each commits alone (for comparing the two)
 */
public record DatabaseSettings(Duration connectionTimeout, Duration breakerOpenFor, boolean groupCommit) {
    public static final DatabaseSettings DEFAULTS =
            new DatabaseSettings(Duration.ofSeconds(1), Duration.ofMillis(500), true);

    public DatabaseSettings {
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        Objects.requireNonNull(breakerOpenFor, "breakerOpenFor");
        if (connectionTimeout.toMillis() < 250)
            throw new IllegalArgumentException("database.connectionTimeout must be at least 250ms");
        if (breakerOpenFor.isNegative() || breakerOpenFor.isZero())
            throw new IllegalArgumentException("database.breakerOpenFor must be positive");
    }

    /** The {@code database:} section; a missing section or key keeps the default. */
    public static DatabaseSettings from(JsonNode section) {
        if (section == null || section.isMissingNode() || section.isNull()) return DEFAULTS;
        return new DatabaseSettings(
                ConfigNodes.duration(section.path("connectionTimeout"), DEFAULTS.connectionTimeout()),
                ConfigNodes.duration(section.path("breakerOpenFor"), DEFAULTS.breakerOpenFor()),
                groupCommit(section.path("groupCommit")));
    }

    /** These settings with group commit on or off. */
    public DatabaseSettings withGroupCommit(boolean on) {
        return new DatabaseSettings(connectionTimeout, breakerOpenFor, on);
    }

    private static boolean groupCommit(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) return DEFAULTS.groupCommit();
        if (!node.isBoolean()) throw new IllegalArgumentException("database.groupCommit must be true or false");
        return node.booleanValue();
    }
}
