package dev.baton.mcp.client;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;

/**
 * A connected server as its connection uses it: list its tools, call one, check it is still there. Two kinds, by the
 * protocol revision the server speaks: a 2025 session opened with the initialize handshake, or 2026-07-28 stateless
 * requests. Blocking calls, bounded by the caller's time.
 */
sealed interface ToolSession extends AutoCloseable permits ServerSession, StatelessSession {

    ServerSession.Wire wire();

    /** The server's process id, for a stdio server; -1 otherwise. */
    long pid();

    /** How often the HTTP server has said it no longer knows the session (always 0 without sessions). */
    long sessionLosses();

    List<McpSchema.Tool> listTools(Duration timeout);

    /** Calls a tool within {@code timeout}; when Baton gives up on it, the server is told (as its revision says). */
    McpSchema.CallToolResult call(McpSchema.CallToolRequest request, McpTransportContext context, Duration timeout);

    /** The server's prompts; empty when it offers none. */
    List<McpSchema.Prompt> listPrompts(Duration timeout);

    /** One prompt rendered with {@code arguments}. */
    McpSchema.GetPromptResult getPrompt(String name, java.util.Map<String, String> arguments, Duration timeout);

    /** The server's resources, at most {@code maxPages} pages of them; empty when it offers none. */
    List<McpSchema.Resource> listResources(Duration timeout, int maxPages);

    /** One resource's contents ({@code resources/read}). */
    ResourceRead readResource(String uri, Duration timeout);

    /** Fails when the server does not answer within {@code timeout}. */
    void ping(Duration timeout);

    @Override
    void close();
}
