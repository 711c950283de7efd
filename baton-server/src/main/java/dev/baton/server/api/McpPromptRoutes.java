package dev.baton.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolException;
import dev.baton.mcp.client.McpPrompts;
import dev.baton.mcp.client.McpUnavailableException;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prompts of connected MCP servers, for the web app's slash-commands; each route for the caller's usable servers only:
 *
 * <ul>
 *   <li>{@code GET /v1/mcp/prompts}: {@code {"prompts": [{server, name, title, description, arguments: [{name,
 *       description, required}]}]}};
 *   <li>{@code POST /v1/mcp/prompts/{server}/{name}} with {@code {"arguments": {"name": "text", …}}}: the server's
 *       rendering, {@code {server, name, description, messages: [{role, content}]}}. 404 for a server that does not
 *       exist or that the caller may not use (the same answer), 400 when the server refuses (an unknown prompt, a
 *       missing argument), 503 when it is down.
 * </ul>
 */
public final class McpPromptRoutes {
    private final McpPrompts prompts;
    private final int maxBodyBytes;

    public McpPromptRoutes(McpPrompts prompts, int maxBodyBytes) {
        this.prompts = prompts;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/mcp/prompts", this::list);
        routes.post("/v1/mcp/prompts/{server}/{name}", this::render);
    }

    private void list(Context ctx) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (McpPrompts.Prompt p : prompts.list(Caller.of(ctx))) {
            ObjectNode prompt = out.addObject()
                    .put("server", p.server())
                    .put("name", p.name())
                    .put("title", p.title())
                    .put("description", p.description());
            ArrayNode arguments = prompt.putArray("arguments");
            for (McpPrompts.Argument a : p.arguments())
                arguments
                        .addObject()
                        .put("name", a.name())
                        .put("description", a.description())
                        .put("required", a.required());
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.set("prompts", out);
        ctx.json(body);
    }

    private void render(Context ctx) {
        Principal caller = Caller.of(ctx);
        String server = ctx.pathParam("server");
        String name = ctx.pathParam("name");
        Map<String, String> arguments = arguments(RequestBody.jsonObject(ctx, maxBodyBytes));
        McpPrompts.Rendered rendered;
        try {
            rendered = prompts.render(caller, server, name, arguments)
                    .orElseThrow(() -> new ApiException(404, "not_found", "no MCP server " + server));
        } catch (ToolException e) {
            throw new ApiException(400, "prompt_refused", "MCP server " + server + " refused: " + e.getMessage());
        } catch (McpUnavailableException e) {
            throw new ApiException(503, "mcp_unavailable", e.getMessage());
        }
        ObjectNode body = Json.MAPPER
                .createObjectNode()
                .put("server", rendered.server())
                .put("name", rendered.name())
                .put("description", rendered.description());
        ArrayNode messages = body.putArray("messages");
        for (McpPrompts.Message m : rendered.messages()) {
            ObjectNode message = messages.addObject().put("role", m.role());
            message.set("content", m.content());
        }
        ctx.json(body);
    }

    /** {@code arguments}: absent, or an object of strings (what MCP's prompt arguments are). */
    private static Map<String, String> arguments(JsonNode body) {
        JsonNode node = body.path("arguments");
        Map<String, String> out = new LinkedHashMap<>();
        if (node.isMissingNode() || node.isNull()) return out;
        if (!node.isObject()) throw ApiException.badRequest("arguments must be an object of strings");
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!e.getValue().isTextual())
                throw ApiException.badRequest("arguments." + e.getKey() + " must be a string");
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
