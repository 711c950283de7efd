package dev.baton.spring.web;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.runtime.Baton;
import dev.baton.runtime.tool.ToolAccess;
import dev.baton.wire.WireJson;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/agents} and {@code GET /v1/tools}: the agents the caller may use, and the tools of those agents that
 * the caller's permissions allow, as {@code baton serve}'s {@code CatalogRoutes} lists them.
 */
@RestController
@RequestMapping("${baton.api.base-path:}/v1")
public class BatonCatalogController implements BatonApiEndpoint {
    private final Baton baton;
    private final ApiRequests requests;

    public BatonCatalogController(Baton baton, CallerResolver callers) {
        this.baton = baton;
        this.requests = new ApiRequests(callers, 0);
    }

    @GetMapping("/agents")
    public ResponseEntity<String> agents(HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        ObjectNode out = WireJson.MAPPER.createObjectNode();
        ArrayNode agents = out.putArray("agents");
        for (AgentDefinition a : baton.agents().usableBy(caller)) {
            ObjectNode n =
                    agents.addObject().put("id", a.id()).put("name", a.name()).put("description", a.description());
            ArrayNode tools = n.putArray("tools");
            a.tools().forEach(tools::add);
        }
        return ApiRequests.json(200, out);
    }

    /** Each tool with where it comes from, whether a person confirms its calls, and whether its data is shared. */
    @GetMapping("/tools")
    public ResponseEntity<String> tools(HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        ObjectNode out = WireJson.MAPPER.createObjectNode();
        ArrayNode tools = out.putArray("tools");
        for (ToolAccess.Permitted permitted : baton.toolAccess().visibleTo(caller, null)) {
            ToolDefinition d = permitted.tool().definition();
            ObjectNode n = tools.addObject().put("name", d.name()).put("description", d.description());
            n.set("parameters", d.parametersSchema());
            n.put("source", permitted.source()).put("destructive", d.destructive());
            if (d.sharedData()) n.put("sharedData", true);
        }
        return ApiRequests.json(200, out);
    }
}
