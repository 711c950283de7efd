package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /v1/agents} and {@code GET /v1/tools}: what the caller may use. */
public final class CatalogRoutes {

    private final AgentRegistry agents;
    private final ToolCatalog tools;

    public CatalogRoutes(AgentRegistry agents, ToolCatalog tools) {
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

    /** Tools of the agents the caller may use, limited to those whose permissions the caller holds. */
    private void tools(Context ctx) {
        Principal p = Caller.of(ctx);
        Map<String, ToolDefinition> visible = new LinkedHashMap<>();
        for (AgentDefinition a : agents.usableBy(p)) {
            for (Tool t : tools.visibleTo(a)) {
                ToolDefinition d = t.definition();
                if (p.hasAllPermissions(d.requiredPermissions())) visible.putIfAbsent(d.name(), d);
            }
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("tools");
        visible.values().forEach(d -> {
            ObjectNode n = arr.addObject().put("name", d.name()).put("description", d.description());
            n.set("parameters", d.parametersSchema());
        });
        ctx.json(out);
    }
}
