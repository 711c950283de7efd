package dev.baton.mcp.config;

import java.time.Duration;
import java.util.Set;

/**
 * What an operator set for one tool of a server, overriding the server's settings.
 *
 * @param permissions what a caller must hold to use the tool; null keeps the server's
 * @param timeout null keeps the server's
 * @param destructive whether a call waits for the user's approval (under the default approval policy), whatever the
 *     server's own hints say; null leaves it to the server's trust and hints
 */
public record ToolSettings(Set<String> permissions, Duration timeout, Boolean destructive) {
    public ToolSettings {
        permissions = permissions == null ? null : Set.copyOf(permissions);
        if (timeout != null && !timeout.isPositive()) throw new IllegalArgumentException("timeout must be positive");
    }

    public ToolSettings(Set<String> permissions, Duration timeout) {
        this(permissions, timeout, null);
    }
}
