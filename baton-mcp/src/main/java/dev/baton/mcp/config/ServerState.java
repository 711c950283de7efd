package dev.baton.mcp.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Whose data an MCP server holds, stated by the operator for every server: Baton cannot tell from the outside whether
 * a server keeps one memory for everybody, so no default may share it between users silently.
 */
public sealed interface ServerState {

    /**
     * Each user's data is their own. A command server runs as one process per user (started on the user's first call,
     * stopped after {@code idleTimeout} without calls, at most {@code maxProcesses} at once); a URL server must be
     * told who calls ({@code identity:}) and enforce it.
     */
    record PerUser(int maxProcesses, Duration idleTimeout) implements ServerState {
        public static final int DEFAULT_MAX_PROCESSES = 50;
        public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);

        public PerUser {
            if (maxProcesses < 1) throw new IllegalArgumentException("maxProcesses must be at least 1");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (!idleTimeout.isPositive()) throw new IllegalArgumentException("idleTimeout must be positive");
        }

        public static PerUser defaults() {
            return new PerUser(DEFAULT_MAX_PROCESSES, DEFAULT_IDLE_TIMEOUT);
        }
    }

    /**
     * Every caller reads and changes the same data, so only holders of one of {@code roles} may use its tools, and the
     * catalogue says its data is shared.
     */
    record Shared(Set<String> roles) implements ServerState {
        public Shared {
            roles = Set.copyOf(Objects.requireNonNull(roles, "roles"));
            if (roles.isEmpty())
                throw new IllegalArgumentException("a shared server needs sharedWith: the roles that may use it");
        }
    }
}
