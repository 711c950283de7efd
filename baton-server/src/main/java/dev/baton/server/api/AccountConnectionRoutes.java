package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.mcp.client.McpAccounts;
import dev.baton.mcp.client.oauth.AccountFlowException;
import dev.baton.mcp.client.oauth.UserAccounts;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;

/**
 * Users' own accounts on external MCP servers with {@code auth: oauth}, each route for the caller's own only:
 *
 * <ul>
 *   <li>{@code GET /v1/mcp/servers/{name}/connect}: starts connecting; a 302 to the authorization server, or with
 *       {@code Accept: application/json} {@code {"server", "authorizationUrl"}} (what the web app uses, since a
 *       browser's navigation carries no bearer token). Either way a cookie binds the authorization to this browser;
 *   <li>{@code GET /oauth/mcp/callback}: where the authorization server sends the browser back (no bearer token: the
 *       sealed state names the user, the cookie proves it is the browser that started); a 302 to the web app, or JSON
 *       with {@code Accept: application/json}; 400 for a state that is missing, changed, expired or another
 *       browser's, and for an {@code iss} that is not the server's;
 *   <li>{@code GET /v1/mcp/connections}: the caller's connected accounts and every server they could connect;
 *   <li>{@code DELETE /v1/mcp/connections/{name}}: revokes and forgets the caller's account there (204; 404 when it
 *       was not connected).
 * </ul>
 */
public final class AccountConnectionRoutes {
    public static final String CALLBACK_PATH = "/oauth/mcp/callback";
    /** The cookie that binds an authorization to the browser that started it. */
    static final String BROWSER_COOKIE = "baton_mcp_oauth";

    private final Optional<McpAccounts> accounts;
    private final boolean secureCookie;

    public AccountConnectionRoutes(Optional<McpAccounts> accounts) {
        this.accounts = accounts;
        // over https the cookie is Secure; a development Baton on http://localhost still works
        this.secureCookie = accounts.map(McpAccounts::callbackIsHttps).orElse(false);
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/mcp/servers/{name}/connect", this::connect);
        routes.get(CALLBACK_PATH, this::callback);
        routes.get("/v1/mcp/connections", this::connections);
        routes.delete("/v1/mcp/connections/{name}", this::disconnect);
    }

    private void connect(Context ctx) {
        Principal caller = Caller.of(ctx);
        String server = ctx.pathParam("name");
        UserAccounts.Started started = run(() -> accounts().start(caller, server, null));
        ctx.header(
                "Set-Cookie",
                BROWSER_COOKIE + "=" + started.browserValue() + "; Path=/oauth/mcp/; Max-Age="
                        + UserAccounts.PENDING_FOR.toSeconds() + "; HttpOnly; SameSite=Lax"
                        + (secureCookie ? "; Secure" : ""));
        ctx.header("Cache-Control", "no-store");
        if (wantsJson(ctx)) {
            ctx.json(Json.MAPPER
                    .createObjectNode()
                    .put("server", server)
                    .put("authorizationUrl", started.authorizationUrl().toString()));
        } else {
            ctx.redirect(started.authorizationUrl().toString(), io.javalin.http.HttpStatus.FOUND);
        }
    }

    private void callback(Context ctx) {
        String browser = ctx.cookie(BROWSER_COOKIE);
        UserAccounts.Connected connected = run(() -> accounts().finish(ctx.queryString(), browser));
        ctx.header(
                "Set-Cookie",
                BROWSER_COOKIE + "=; Path=/oauth/mcp/; Max-Age=0; HttpOnly; SameSite=Lax"
                        + (secureCookie ? "; Secure" : ""));
        ctx.header("Cache-Control", "no-store");
        if (wantsJson(ctx)) {
            ctx.json(Json.MAPPER
                    .createObjectNode()
                    .put("server", connected.server())
                    .put("connected", true));
        } else {
            ctx.redirect("/?mcpConnected=" + connected.server(), io.javalin.http.HttpStatus.FOUND);
        }
    }

    private void connections(Context ctx) {
        Principal caller = Caller.of(ctx);
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("connections");
        ArrayNode servers = body.putArray("servers");
        if (accounts.isEmpty()) {
            ctx.json(body);
            return;
        }
        List<UserAccounts.Connection> own = accounts.get().connections(caller);
        for (UserAccounts.Connection c : own) {
            ObjectNode n = list.addObject()
                    .put("server", c.server())
                    .put("connectedAt", c.connectedAt().toString())
                    .put("updatedAt", c.updatedAt().toString());
            if (c.expiresAt() != null) n.put("expiresAt", c.expiresAt().toString());
            if (c.scope() != null) n.put("scope", c.scope());
        }
        for (String server : accounts.get().servers()) {
            servers.addObject()
                    .put("server", server)
                    .put("connected", own.stream().anyMatch(c -> c.server().equals(server)))
                    .put("connectUrl", UserAccounts.connectPath(server));
        }
        ctx.json(body);
    }

    private void disconnect(Context ctx) {
        Principal caller = Caller.of(ctx);
        String server = ctx.pathParam("name");
        boolean had = run(() -> accounts().disconnect(caller, server));
        if (!had) throw new ApiException(404, "not_found", "no connected account on MCP server " + server);
        ctx.status(204);
    }

    private McpAccounts accounts() {
        return accounts.orElseThrow(() ->
                new AccountFlowException(AccountFlowException.Kind.UNKNOWN_SERVER, "no MCP server has auth: oauth"));
    }

    /** The one place the flow's failures become HTTP answers. */
    private static <T> T run(java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (AccountFlowException e) {
            throw switch (e.kind()) {
                case UNKNOWN_SERVER -> new ApiException(404, "not_found", e.getMessage());
                case BAD_STATE -> new ApiException(400, "invalid_state", e.getMessage());
                case ISSUER_MISMATCH -> new ApiException(400, "issuer_mismatch", e.getMessage());
                case DENIED -> new ApiException(400, "access_denied", e.getMessage());
                case PROVIDER_FAILED -> new ApiException(502, "authorization_server_failed", e.getMessage());
            };
        }
    }

    private static boolean wantsJson(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains("application/json");
    }
}
