package dev.baton.server.api;

import dev.baton.core.auth.Principal;
import dev.baton.mcp.server.McpEndpoint;
import dev.baton.mcp.server.McpRequestHeaders;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /mcp}: Baton's tools for MCP clients (Claude Desktop, the MCP Inspector, another orchestrator) over the
 * streamable HTTP transport, behind the same {@code Authorization: Bearer <JWT>} as the API. The wire is a Javalin
 * route here and the protocol is the MCP SDK's server in baton-mcp ({@link McpEndpoint}): the SDK's servlet transport
 * would sit outside Javalin's filters, so it would neither authenticate nor map its errors the way every other route
 * does.
 *
 * <ul>
 *   <li>{@code POST /mcp[?agent=<id>]}: one JSON-RPC message; a request is answered with {@code application/json}, a
 *       notification with 202. A request of the 2026-07-28 revision stands alone (its version in {@code _meta}, its
 *       {@code Mcp-Method} / {@code Mcp-Name} headers matching the body); in the older revisions {@code initialize}
 *       answers with the {@code Mcp-Session-Id} later requests must send.
 *   <li>{@code DELETE /mcp}: ends the session.
 *   <li>{@code GET /mcp}: 405 — this endpoint sends nothing unasked, so it offers no event stream.
 * </ul>
 *
 * A request whose {@code Origin} is not allowed ({@link McpOrigins}) is refused with 403 whatever it is.
 *
 * <p>HTTP-level refusals (no token 401, a body that is not JSON-RPC 400, too large 413, wrong media types 415 and 406, a
 * session that is unknown or not the caller's 404) are the API's {@code {"error": …}} bodies; errors of the protocol
 * itself (an unknown method, a tool the caller may not use, params of the wrong shape: -32602) are JSON-RPC errors, as
 * MCP clients expect — for 2026-07-28 requests with the HTTP status its binding names (400 for a header mismatch, an
 * unsupported version or bad params, 404 for an unknown method).
 */
public final class McpRoutes {
    static final String SESSION_HEADER = "Mcp-Session-Id";

    private final McpEndpoint endpoint;
    private final int maxBodyBytes;
    private final McpOrigins origins;

    public McpRoutes(McpEndpoint endpoint, int maxBodyBytes) {
        this(endpoint, maxBodyBytes, McpOrigins.LOOPBACK_ONLY);
    }

    /** @param origins the browser origins that may call the endpoint (requests without {@code Origin} always may) */
    public McpRoutes(McpEndpoint endpoint, int maxBodyBytes, McpOrigins origins) {
        this.endpoint = endpoint;
        this.maxBodyBytes = maxBodyBytes;
        this.origins = origins;
    }

    public void register(RoutesConfig routes) {
        // before anything is read or answered: a page a DNS-rebinding attack loaded gets nothing but this refusal
        routes.before("/mcp", ctx -> {
            if (!origins.allows(ctx.header("Origin")))
                throw new ApiException(
                        403,
                        "origin_not_allowed",
                        "requests from this origin may not use /mcp (server.mcpAllowedOrigins)");
        });
        routes.post("/mcp", this::post);
        routes.delete("/mcp", this::delete);
        routes.get("/mcp", ctx -> {
            ctx.header("Allow", "POST, DELETE");
            throw new ApiException(
                    405, "method_not_allowed", "this endpoint offers no event stream; POST JSON-RPC messages to it");
        });
    }

    private void post(Context ctx) throws IOException {
        Principal caller = Caller.of(ctx);
        String contentType = ctx.contentType() == null ? "" : ctx.contentType().toLowerCase(Locale.ROOT);
        if (!contentType.startsWith("application/json"))
            throw new ApiException(415, "unsupported_media_type", "send the JSON-RPC message as application/json");
        String accept = ctx.header("Accept");
        if (accept != null && !accepts(accept))
            throw new ApiException(406, "not_acceptable", "this endpoint answers with application/json");
        String body = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        switch (endpoint.post(caller, ctx.queryParam("agent"), headers(ctx), body)) {
            case McpEndpoint.Reply.Json json -> {
                if (json.sessionId() != null) ctx.header(SESSION_HEADER, json.sessionId());
                ctx.status(json.status()).contentType("application/json").result(json.body());
                // a JSON-RPC error (Method not found: 404) is the answer, not a route that does not exist
                if (json.status() >= 400) ErrorResponses.keepErrorBody(ctx);
            }
            case McpEndpoint.Reply.Accepted accepted -> ctx.status(202);
            case McpEndpoint.Reply.Refused refused ->
                throw new ApiException(refused.status(), refused.code(), refused.message());
        }
    }

    /** Every header of the request with all its values: the protocol checks some against the body. */
    private static McpRequestHeaders headers(Context ctx) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : Collections.list(ctx.req().getHeaderNames()))
            headers.put(name, Collections.list(ctx.req().getHeaders(name)));
        return new McpRequestHeaders(headers);
    }

    private void delete(Context ctx) {
        endpoint.delete(Caller.of(ctx), ctx.header(SESSION_HEADER));
        ctx.status(204);
    }

    private static boolean accepts(String accept) {
        String a = accept.toLowerCase(Locale.ROOT);
        return a.contains("application/json") || a.contains("*/*") || a.contains("application/*");
    }
}
