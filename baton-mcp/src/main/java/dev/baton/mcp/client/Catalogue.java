package dev.baton.mcp.client;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one MCP server offers right now, as the model sees it, and what its pins hold back.
 *
 * @param version grows with every rebuild
 */
record Catalogue(List<McpTool> offered, List<HeldBack> heldBack, long version, Refresh cause, Instant builtAt) {

    /** A tool the server lists but Baton does not offer. */
    record HeldBack(String tool, String exposedName, String reason, String changedHash) {}

    static final Catalogue EMPTY = new Catalogue(List.of(), List.of(), 0, Refresh.INITIAL, Instant.EPOCH);

    Catalogue {
        offered = List.copyOf(offered);
        heldBack = List.copyOf(heldBack);
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(builtAt, "builtAt");
    }
}
