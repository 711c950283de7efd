package dev.baton.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.BatonApp;
import dev.baton.app.config.BatonConfig;
import dev.baton.mcp.server.McpEndpoint;
import dev.baton.mcp.server.RequestStateKey;
import dev.baton.mcp.server.ToolCallApproval;
import dev.baton.runtime.Baton;
import dev.baton.runtime.config.ConfigException;
import dev.baton.server.api.AccountConnectionRoutes;
import dev.baton.server.api.AuditRoutes;
import dev.baton.server.api.CatalogRoutes;
import dev.baton.server.api.DeliveredMessageRoutes;
import dev.baton.server.api.HealthRoutes;
import dev.baton.server.api.McpAdminRoutes;
import dev.baton.server.api.McpOrigins;
import dev.baton.server.api.McpPromptRoutes;
import dev.baton.server.api.McpResourceRoutes;
import dev.baton.server.api.McpRoutes;
import dev.baton.server.api.MessageRoutes;
import dev.baton.server.api.SessionRoutes;
import dev.baton.server.api.TurnEventRoutes;
import dev.baton.server.api.experiment.ExperimentRoutes;
import dev.baton.server.api.experiment.FlagRoutes;
import dev.baton.server.http.DomainRouteAdapter;
import dev.baton.server.http.SseStreams;
import dev.baton.server.usage.UsageRoutes;
import dev.baton.store.jdbc.Database;
import io.javalin.config.RoutesConfig;
import java.util.List;
import java.util.function.Consumer;

/** The route groups of the server's HTTP API, each a thin front door over the runtime or a domain's service. */
final class ServerRoutes {
    private ServerRoutes() {}

    /** Baton's own HTTP API: health, catalogue, MCP, sessions, messages, streams, usage, audit, experiments, flags. */
    static List<Consumer<RoutesConfig>> api(BatonApp app, SseStreams sse) {
        BatonConfig config = app.settings().config();
        Database db = app.database();
        Baton baton = app.baton();
        var mcp = app.mcp();
        var resilient = app.models();
        String modelMode = app.modelMode();
        return List.of(
                new HealthRoutes(() -> db.isUp(HealthRoutes.DEADLINE), modelMode, resilient::breakerStates, mcp::status)
                        ::register,
                new CatalogRoutes(baton.agents(), baton.toolAccess())::register,
                new McpAdminRoutes(mcp, config.maxBodyBytes())::register,
                new AccountConnectionRoutes(mcp.accounts())::register,
                new McpPromptRoutes(mcp.prompts(), config.maxBodyBytes())::register,
                new McpResourceRoutes(mcp.resources())::register,
                new McpRoutes(
                        new McpEndpoint(
                                baton.toolAccess(),
                                baton.sessions(),
                                mcpApproval(config, baton),
                                RequestStateKey.from(config.env())),
                        config.maxBodyBytes(),
                        mcpOrigins(config))::register,
                new SessionRoutes(baton.sessions(), baton.approvals(), baton.turnEvents(), config.maxBodyBytes())
                        ::register,
                new MessageRoutes(
                                baton.conversations(),
                                baton.approvals(),
                                baton.turnEvents(),
                                config.maxBodyBytes(),
                                sse)::register,
                new TurnEventRoutes(baton.followedTurns(), sse)::register,
                new UsageRoutes(baton.usage())::register,
                new AuditRoutes(baton.auditTrails())::register,
                new ExperimentRoutes(baton.experiments(), config.maxBodyBytes())::register,
                new FlagRoutes(baton.flags(), config.maxBodyBytes())::register,
                new DeliveredMessageRoutes(app.deliveries(), baton.sessions(), sse)::register);
    }

    /**
     * Baton's approval rule for calls over /mcp, and {@code server.mcpTrustClientConfirmation} (default false): whether
     * a call needing approval from an MCP client Baton cannot ask runs (the client is trusted to have asked its user)
     * or is refused.
     */
    private static ToolCallApproval mcpApproval(BatonConfig config, Baton baton) {
        JsonNode trust = config.section("server").path("mcpTrustClientConfirmation");
        if (!trust.isMissingNode() && !trust.isNull() && !trust.isBoolean())
            throw new ConfigException("server.mcpTrustClientConfirmation must be true or false, got " + trust);
        return new ToolCallApproval(baton.approvals()::reasonToHold, trust.asBoolean(false));
    }

    private static McpOrigins mcpOrigins(BatonConfig config) {
        try {
            return McpOrigins.from(config.section("server"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** The domains' REST APIs, in the domains' order: the same services their tools call. */
    static List<Consumer<RoutesConfig>> domains(BatonApp app, int maxBodyBytes) {
        return app.routes().stream()
                .map(group ->
                        (Consumer<RoutesConfig>) routes -> DomainRouteAdapter.register(group, routes, maxBodyBytes))
                .toList();
    }
}
