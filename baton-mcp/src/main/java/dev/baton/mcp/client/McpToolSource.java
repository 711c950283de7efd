package dev.baton.mcp.client;

import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import java.util.List;

/**
 * One MCP server as a tool source named {@code mcp:<server>}. Its tools keep being offered while the server is down
 * (their calls fail fast), so the model can tell the user the tool is unavailable rather than not knowing it exists.
 *
 * <p>Allow-list entries it understands, besides a tool's own name ({@code memory__read_graph}):
 * {@code mcp:<server>/*} for every tool of the server, and {@code mcp:<server>/<tool>} for one tool by its name on
 * the server ({@code mcp:memory/read_graph}).
 */
final class McpToolSource implements ToolSource {
    private final McpConnection connection;
    private final String prefix;

    McpToolSource(McpConnection connection) {
        this.connection = connection;
        this.prefix = "mcp:" + connection.name() + "/";
    }

    @Override
    public String name() {
        return "mcp:" + connection.name();
    }

    @Override
    public List<Tool> tools() {
        return List.copyOf(connection.catalogue().offered());
    }

    @Override
    public boolean admits(String allowListEntry, ToolDefinition tool) {
        if (!allowListEntry.startsWith(prefix) || !offers(tool.name())) return false;
        String selected = allowListEntry.substring(prefix.length());
        return selected.equals("*")
                || ToolNames.exposed(connection.name(), selected).equals(tool.name());
    }

    private boolean offers(String exposedName) {
        return connection.catalogue().offered().stream()
                .anyMatch(t -> t.definition().name().equals(exposedName));
    }
}
