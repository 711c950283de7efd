package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A function the model may call. Implementations are thin adapters: map the (already schema-validated)
 * arguments onto one domain service call made as {@code context.principal()}, and return its result as JSON.
 */
public interface Tool {

    ToolDefinition definition();

    /**
     * @throws ToolException with a message safe to show the model when the domain refuses the call
     */
    JsonNode execute(JsonNode arguments, ToolContext context);
}
