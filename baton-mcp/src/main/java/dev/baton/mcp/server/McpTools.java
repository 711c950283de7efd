package dev.baton.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.mcp.client.SdkJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/** Baton's tools in MCP's terms: a definition as an MCP tool, an outcome as a {@code tools/call} result. */
final class McpTools {
    private McpTools() {}

    /**
     * The tool as MCP clients list it: the same name, description and argument schema as {@code GET /v1/tools}, and
     * {@code destructiveHint} true for a destructive tool (its calls wait for approval) and false for every other.
     */
    static McpSchema.Tool tool(ToolDefinition definition) {
        McpSchema.Tool.Builder builder = McpSchema.Tool.builder(
                        definition.name(), SdkJson.map(definition.parametersSchema()))
                .description(definition.description());
        // Baton knows which of its tools destroy something: it says so either way, so a client (Baton's own too) does
        // not fall back on MCP's "may be destructive" and ask for approval of every call
        builder.annotations(new McpSchema.ToolAnnotations(null, null, definition.destructive(), null, null, null));
        return builder.build();
    }

    /**
     * The outcome as a result: the JSON result as text (what every client shows) and, when it is an object, as
     * structured content; a failure as {@code isError} with the error's code and message, the way a turn tells the
     * model.
     */
    static McpSchema.CallToolResult result(ToolCallOutcome outcome) {
        if (!outcome.ok()) {
            return McpSchema.CallToolResult.builder(java.util.List.of(new McpSchema.TextContent(
                            outcome.error().code() + ": " + outcome.error().message())))
                    .isError(true)
                    .build();
        }
        JsonNode result = outcome.result();
        McpSchema.CallToolResult.Builder builder = McpSchema.CallToolResult.builder(
                        java.util.List.of(new McpSchema.TextContent(result.toString())))
                .isError(false);
        if (result.isObject()) builder.structuredContent(SdkJson.map(result));
        return builder.build();
    }

    /** A call's arguments as the JSON text the executor parses, as a model's would be. */
    static String arguments(Map<String, Object> arguments) {
        return arguments == null ? "{}" : SdkJson.tree(arguments).toString();
    }
}
