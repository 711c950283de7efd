package dev.baton.core.tool;

import java.util.List;

/** Where tools come from: an in-process domain or an external MCP server. The catalogue may change over time. */
public interface ToolSource {

    /** A name for logs, circuit breakers and catalogue listings, e.g. "tasks" or "mcp:memory". */
    String name();

    /** The tools on offer right now. */
    List<Tool> tools();

    /**
     * Whether an agent's allow-list entry other than the tool's own name admits one of this source's tools: a source
     * may offer its own selector syntax (an MCP source admits {@code mcp:memory/*} and {@code mcp:memory/read_graph}).
     * An entry equal to the tool's name always admits it; the default admits nothing else.
     */
    default boolean admits(String allowListEntry, ToolDefinition tool) {
        return false;
    }
}
