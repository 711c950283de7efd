package dev.baton.mcp.config;

import java.time.Duration;
import java.util.Set;

/**
 * What an operator set for one tool of a server, overriding the server's settings.
 *
 * @param permissions what a caller must hold to use the tool; null keeps the server's
 * @param timeout null keeps the server's
 */
public record ToolSettings(Set<String> permissions, Duration timeout) {
    public ToolSettings {
        permissions = permissions == null ? null : Set.copyOf(permissions);
        if (timeout != null && !timeout.isPositive()) throw new IllegalArgumentException("timeout must be positive");
    }
}
