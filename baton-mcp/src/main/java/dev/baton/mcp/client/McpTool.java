package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import io.opentelemetry.context.Scope;
import java.util.Objects;

/**
 * One tool of an MCP server, as Baton offers it: a thin adapter that sends the (already validated and permitted)
 * arguments to the server as the caller and maps what comes back. See {@link McpConnection#call} for failures.
 *
 * @param remoteName the tool's name on the server
 */
record McpTool(ToolDefinition definition, String remoteName, McpConnection connection) implements Tool {
    McpTool {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(remoteName, "remoteName");
        Objects.requireNonNull(connection, "connection");
    }

    @Override
    public JsonNode execute(JsonNode arguments, ToolContext context) {
        McpClientSpan span = McpClientSpan.start(remoteName, connection.settings());
        try (Scope ignored = span.makeCurrent()) {
            JsonNode result = connection.call(remoteName, arguments, context);
            span.succeeded();
            return result;
        } catch (RuntimeException e) {
            span.failed(e);
            throw e;
        }
    }
}
