package dev.baton.core.tool.pin;

import java.time.Instant;
import java.util.List;

/**
 * Where tool pins are kept: what each tool of a remote tool server (baton-mcp's MCP servers) looked like when first
 * seen, and whether it looks different now. baton-store-jdbc's {@code JdbcToolPins} keeps them in the database, so
 * every instance and every restart agrees on what was accepted; baton-mcp's {@code InMemoryToolPins} in one process.
 * The port lives here, with no MCP in it, so that baton-testkit's {@code ToolPinsContract} can hold every adapter to
 * it. Implementations must make {@link #observe} and {@link #accept} atomic: two instances may see the same tool at
 * the same moment.
 */
public interface ToolPins {

    /**
     * Records that {@code server} offers {@code tool} with fingerprint {@code hash} now. The first sighting pins it;
     * a sighting that differs from the pin is recorded as a change (the first time it is seen keeps its time); one
     * that matches the pin again clears the change.
     *
     * @return the pin as stored afterwards
     */
    ToolPin observe(String server, String tool, String hash, Instant now);

    /**
     * An operator accepts the change recorded for a tool: its fingerprint becomes the pin.
     *
     * @param hash the changed fingerprint the operator reviewed; nothing happens unless it is the one recorded now
     *     (the server may have changed the tool again since)
     * @return whether the pin was updated
     */
    boolean accept(String server, String tool, String hash, Instant now);

    /** Every pin, by server and tool. */
    List<ToolPin> all();
}
