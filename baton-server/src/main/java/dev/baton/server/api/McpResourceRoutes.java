package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.mcp.client.McpResources;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * {@code GET /v1/mcp/resources}: the resources of the connected MCP servers the caller may use (what an agent's
 * {@code context.mcpResources} can name), {@code {"resources": [{server, uri, name, title, description, mimeType,
 * size}]}}. A server the caller may not use, or where they have not connected their account, lists nothing.
 */
public final class McpResourceRoutes {
    private final McpResources resources;

    public McpResourceRoutes(McpResources resources) {
        this.resources = resources;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/mcp/resources", this::list);
    }

    private void list(Context ctx) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (McpResources.Resource r : resources.list(Caller.of(ctx))) {
            ObjectNode resource = out.addObject()
                    .put("server", r.server())
                    .put("uri", r.uri())
                    .put("name", r.name())
                    .put("title", r.title())
                    .put("description", r.description())
                    .put("mimeType", r.mimeType());
            if (r.size() != null) resource.put("size", r.size());
            else resource.putNull("size");
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.set("resources", out);
        ctx.json(body);
    }
}
