package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.mcp.config.McpServerSettings;
import io.opentelemetry.context.Scope;
import java.util.Objects;

/**
 * One tool of an MCP server, as Baton offers it: a thin adapter that sends the (already validated and permitted)
 * arguments to the server as the caller and maps what comes back. See {@link McpConnection#call} for failures.
 *
 * @param remoteName the tool's name on the server
 * @param calls the server's connection, or the pool of its processes per user
 */
record McpTool(ToolDefinition definition, String remoteName, CallTarget calls, McpServerSettings settings)
        implements Tool {
    McpTool {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(remoteName, "remoteName");
        Objects.requireNonNull(calls, "calls");
        Objects.requireNonNull(settings, "settings");
    }

    @Override
    public JsonNode execute(JsonNode arguments, ToolContext context) {
        McpClientSpan span = McpClientSpan.start(remoteName, settings);
        try (Scope ignored = span.makeCurrent()) {
            JsonNode result = calls.call(remoteName, arguments, context);
            span.succeeded();
            return result;
        } catch (RuntimeException e) {
            span.failed(e);
            throw e;
        }
    }
}
