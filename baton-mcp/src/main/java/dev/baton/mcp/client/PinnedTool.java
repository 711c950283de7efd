package dev.baton.mcp.client;

import java.time.Instant;
import java.util.List;

/**
 * A pinned tool as an operator reviews it.
 *
 * @param exposedName the name the model sees
 * @param changedHash the fingerprint the server offers now when it differs from the pin (the tool is disabled); to
 *     accept the change, send it back
 * @param offered whether the tool is on offer here now
 * @param flags what an operator should look at in its text (invisible characters removed, instruction-like wording)
 */
public record PinnedTool(
        String server,
        String tool,
        String exposedName,
        String pinnedHash,
        Instant pinnedAt,
        String changedHash,
        Instant changedAt,
        boolean offered,
        List<String> flags) {
    public PinnedTool {
        flags = List.copyOf(flags);
    }
}
