package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolContext;

/**
 * Where a tool of a server is called: the server's one connection, or — for a command server whose state is per user —
 * the caller's own process.
 */
interface CallTarget {
    /**
     * Calls a tool as the context's caller.
     *
     * @throws dev.baton.core.tool.ToolException when the server answered with an error, or the call was refused
     * @throws McpUnavailableException when the server is down, went away during the call or did not answer in time
     */
    JsonNode call(String remoteName, JsonNode arguments, ToolContext context);
}
