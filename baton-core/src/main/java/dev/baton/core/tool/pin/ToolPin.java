package dev.baton.core.tool.pin;

import java.time.Instant;
import java.util.Objects;

/**
 * What one MCP tool looked like when Baton first saw it, and whether it looks different now.
 *
 * @param pinnedHash the fingerprint accepted for the tool (its first sighting, or an operator's acceptance)
 * @param changedHash the fingerprint the server offers now when it differs from the pin; null while they match
 * @param changedAt when the server was first seen offering {@code changedHash}; null while they match
 */
public record ToolPin(
        String server, String tool, String pinnedHash, Instant pinnedAt, String changedHash, Instant changedAt) {
    public ToolPin {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(pinnedHash, "pinnedHash");
        Objects.requireNonNull(pinnedAt, "pinnedAt");
        if ((changedHash == null) != (changedAt == null))
            throw new IllegalArgumentException("changedHash and changedAt are set together");
    }

    /** The tool no longer looks like its pin: it stays disabled until an operator accepts the change. */
    public boolean changed() {
        return changedHash != null;
    }
}
