package dev.baton.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.mcp.client.McpAdministration;
import dev.baton.mcp.client.McpClients;
import dev.baton.mcp.client.PinnedTool;
import dev.baton.mcp.client.ServerStatus;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Locale;

/**
 * The operator's view of the external MCP servers, for callers with {@code admin:mcp}:
 *
 * <ul>
 *   <li>{@code GET /v1/admin/mcp/servers}: each server's state, transport, pid, restarts and last error;
 *   <li>{@code GET /v1/admin/mcp/pins}: every pinned tool, with the changed fingerprint of one that is disabled;
 *   <li>{@code POST /v1/admin/mcp/pins/{server}/{tool}/accept} with {@code {"hash": "<changedHash>"}}: accepts the
 *       change that was reviewed (422 if the tool changed again since, or has no change), and the tool is offered
 *       again.
 * </ul>
 *
 * <p>Who may, and how an acceptance is refused, is {@link McpAdministration}'s; these routes only translate.
 */
public final class McpAdminRoutes {
    public static final String ADMIN_MCP = McpAdministration.ADMIN_MCP;

    private final McpAdministration mcp;
    private final int maxBodyBytes;

    public McpAdminRoutes(McpClients mcp, int maxBodyBytes) {
        this.mcp = new McpAdministration(mcp);
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/mcp/servers", this::servers);
        routes.get("/v1/admin/mcp/pins", this::pins);
        routes.post("/v1/admin/mcp/pins/{server}/{tool}/accept", this::accept);
    }

    private void servers(Context ctx) {
        McpAdministration.Operator operator = mcp.operator(Caller.of(ctx));
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("servers");
        for (ServerStatus s : operator.servers()) {
            ObjectNode n = list.addObject()
                    .put("name", s.name())
                    .put("state", s.state().name().toLowerCase(Locale.ROOT))
                    .put("transport", s.wire())
                    .put("since", s.since().toString())
                    .put("tools", s.tools())
                    .put("heldBack", s.heldBack())
                    .put("restarts", s.restarts())
                    .put("lastError", s.lastError());
            if (s.pid() > 0) n.put("pid", s.pid());
            if (s.userProcesses() >= 0) n.put("userProcesses", s.userProcesses());
        }
        ctx.json(body);
    }

    private void pins(Context ctx) {
        McpAdministration.Operator operator = mcp.operator(Caller.of(ctx));
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("pins");
        for (PinnedTool pin : operator.pins()) {
            ObjectNode row = list.addObject();
            // what to review in its text: invisible characters removed, wording that reads like an instruction
            pin.flags().forEach(row.withArray("flags")::add);
            row.put("server", pin.server())
                    .put("tool", pin.tool())
                    .put("name", pin.exposedName())
                    .put("pinnedHash", pin.pinnedHash())
                    .put("pinnedAt", pin.pinnedAt().toString())
                    .put("changedHash", pin.changedHash())
                    .put(
                            "changedAt",
                            pin.changedAt() == null ? null : pin.changedAt().toString())
                    .put("offered", pin.offered());
        }
        ctx.json(body);
    }

    private void accept(Context ctx) {
        McpAdministration.Operator operator = mcp.operator(Caller.of(ctx));
        JsonNode hash = RequestBody.jsonObject(ctx, maxBodyBytes).path("hash");
        String accepted = operator.accept(
                ctx.pathParam("server"), ctx.pathParam("tool"), hash.isTextual() ? hash.asText() : null);
        ctx.json(Json.MAPPER
                .createObjectNode()
                .put("server", ctx.pathParam("server"))
                .put("tool", ctx.pathParam("tool"))
                .put("pinnedHash", accepted));
    }
}
