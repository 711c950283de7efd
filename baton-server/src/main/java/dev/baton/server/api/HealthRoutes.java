package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.mcp.client.ServerStatus;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Liveness and readiness; both need no token. Readiness reports each MCP server without depending on it: a server
 * that is down makes its tools fail fast, not the instance unready (every instance would be pulled for the same
 * external server). What it tells an anonymous caller is the state alone — errors, commands and URLs are for
 * {@code GET /v1/admin/mcp/servers}.
 */
public final class HealthRoutes {
    /**
     * How long readiness waits for the database before it reports it down: /readyz answers within about this long
     * whatever the database does.
     */
    public static final java.time.Duration DEADLINE = java.time.Duration.ofSeconds(1);

    private final BooleanSupplier databaseUp;
    private final String modelMode;
    private final Supplier<Map<String, String>> breakers;
    private final Supplier<List<ServerStatus>> mcpServers;

    /** @param modelMode "simulator" or the real provider in use, reported by readiness */
    public HealthRoutes(BooleanSupplier databaseUp, String modelMode) {
        this(databaseUp, modelMode, Map::of, List::of);
    }

    /**
     * @param modelMode "simulator" or the default model, reported by readiness
     * @param breakers each model provider's circuit breaker state ({@code closed}, {@code open}, {@code half_open})
     * @param mcpServers the configured MCP servers' states now
     */
    public HealthRoutes(
            BooleanSupplier databaseUp,
            String modelMode,
            Supplier<Map<String, String>> breakers,
            Supplier<List<ServerStatus>> mcpServers) {
        this.databaseUp = databaseUp;
        this.modelMode = modelMode;
        this.breakers = breakers;
        this.mcpServers = mcpServers;
    }

    public void register(RoutesConfig routes) {
        routes.get("/healthz", ctx -> ctx.json(Json.MAPPER.createObjectNode().put("status", "ok")));
        routes.get("/readyz", ctx -> {
            boolean db = databaseUp.getAsBoolean();
            ObjectNode out = Json.MAPPER.createObjectNode().put("status", db ? "ready" : "not_ready");
            ObjectNode checks =
                    out.putObject("checks").put("database", db ? "up" : "down").put("model", modelMode);
            // an open breaker is not "not ready": the instance still serves, and other models may answer
            ObjectNode providers = checks.putObject("providers");
            breakers.get().forEach(providers::put);
            List<ServerStatus> servers = mcpServers.get();
            if (!servers.isEmpty()) {
                ObjectNode mcp = checks.putObject("mcp");
                for (ServerStatus s : servers) {
                    mcp.putObject(s.name())
                            .put("state", s.state().name().toLowerCase(Locale.ROOT))
                            .put("since", s.since().toString())
                            .put("tools", s.tools());
                }
            }
            ctx.status(db ? 200 : 503).json(out);
        });
    }
}
