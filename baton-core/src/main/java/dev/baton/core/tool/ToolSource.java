package dev.baton.core.tool;

import java.util.List;

/** Where tools come from: an in-process domain today, an MCP server later. The catalogue may change over time. */
public interface ToolSource {

    /** A name for logs and circuit breakers, e.g. "tasks". */
    String name();

    /** The tools on offer right now. */
    List<Tool> tools();
}
