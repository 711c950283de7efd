package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.tool.ToolAccess;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/** {@code GET /v1/agents} and {@code GET /v1/tools}: what the caller may use. */
public final class CatalogRoutes {

    private final AgentRegistry agents;
    private final ToolAccess tools;

    public CatalogRoutes(AgentRegistry agents, ToolAccess tools) {
        this.agents = agents;
        this.tools = tools;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/agents", this::agents);
        routes.get("/v1/tools", this::tools);
    }

    private void agents(Context ctx) {
        Principal p = Caller.of(ctx);
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("agents");
        for (AgentDefinition a : agents.usableBy(p)) {
            ObjectNode n =
                    arr.addObject().put("id", a.id()).put("name", a.name()).put("description", a.description());
            ArrayNode t = n.putArray("tools");
            a.tools().forEach(t::add);
        }
        ctx.json(out);
    }

    /**
     * Tools of the agents the caller may use, limited to those whose permissions the caller holds, with where each
     * comes from ("tasks", "mcp:memory"), whether a person should confirm its calls and whether its data is shared
     * by every caller.
     */
    private void tools(Context ctx) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("tools");
        for (ToolAccess.Permitted permitted : tools.visibleTo(Caller.of(ctx), null)) {
            ToolDefinition d = permitted.tool().definition();
            ObjectNode n = arr.addObject().put("name", d.name()).put("description", d.description());
            n.set("parameters", d.parametersSchema());
            n.put("source", permitted.source()).put("destructive", d.destructive());
            // every caller of such a tool reads and changes the same data: the web app warns before it is used
            if (d.sharedData()) n.put("sharedData", true);
        }
        ctx.json(out);
    }
}
