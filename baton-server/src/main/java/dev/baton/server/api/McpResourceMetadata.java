package dev.baton.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.auth.McpAuthException;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.net.URI;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * {@code /mcp} as an OAuth 2.1 protected resource (MCP authorization, RFC 9728), so that an MCP client finds the
 * identity provider by itself: the protected resource metadata at {@code /.well-known/oauth-protected-resource/mcp}
 * (RFC 9728 §3.1's URL for the resource {@code https://host/mcp}) and at {@code /.well-known/oauth-protected-resource},
 * and a 401 from {@code /mcp} that names it: {@code WWW-Authenticate: Bearer resource_metadata="…"}, with
 * {@code error="invalid_token"} when a token was presented and refused (RFC 6750 §3.1).
 *
 * <p>On only when tokens come from an identity provider Baton can name: a JWKS URL and an issuer are configured. With
 * the HS256 secret alone there is no authorization server to point at, so the metadata is 404 and {@code /mcp}'s 401
 * names none (a plain {@code Bearer} challenge, with {@code error="invalid_token"} for a refused token).
 *
 * <p>The resource is {@code jwt.mcpResource} when configured; otherwise it is derived from the request's {@code Host}
 * (and scheme), so a client reaching Baton under a forged or proxied Host is told that Host back — harmless to Baton
 * (the metadata only names the configured issuer, and no token is accepted for it) but not a binding of tokens to
 * Baton: configure {@code jwt.mcpResource} in production, which also makes {@code /mcp} require it in {@code aud}.
 */
public final class McpResourceMetadata {
    static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";
    private static final String MCP_PATH = "/mcp";
    /** What a Host header may be to be echoed into a URL and a quoted header parameter. */
    private static final Pattern HOST =
            Pattern.compile("[A-Za-z0-9.\\-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?");

    private final URI resource;
    private final String issuer;

    /**
     * @param resource the configured resource, null to derive it from each request
     * @param issuer the authorization server to name; null when there is none (the metadata is then 404)
     */
    McpResourceMetadata(URI resource, String issuer) {
        this.resource = resource;
        this.issuer = issuer;
    }

    /** The routes for {@code jwt}: the issuer is named only when tokens are verified against its JWKS. */
    public static List<Consumer<RoutesConfig>> groups(JwtSettings jwt) {
        String issuer = jwt.jwksUrl() != null ? jwt.issuer() : null;
        return List.of(new McpResourceMetadata(jwt.mcpResource(), issuer)::register);
    }

    public void register(RoutesConfig routes) {
        routes.get(WELL_KNOWN, this::metadata);
        routes.get(WELL_KNOWN + MCP_PATH, this::metadata);
        // /mcp's refusals (HttpApi's before-handler): the API's body and status, plus the way to the metadata
        routes.exception(McpAuthException.class, (e, ctx) -> {
            ctx.header("WWW-Authenticate", challenge(ctx, e));
            ErrorResponses.write(ctx, 401, "unauthorized", e.getMessage());
        });
    }

    private void metadata(Context ctx) {
        if (issuer == null)
            throw new ApiException(
                    404,
                    "not_found",
                    "no protected resource metadata: Baton names an authorization server only when tokens come from an "
                            + "identity provider (jwt.jwksUrl and jwt.issuer)");
        String derived = null;
        if (resource == null) {
            String base = base(ctx);
            if (base == null)
                throw new ApiException(
                        400, "invalid_request", "the Host header is not a host name (or set jwt.mcpResource)");
            derived = base + MCP_PATH;
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("resource", resource != null ? resource.toString() : derived);
        body.putArray("authorization_servers").add(issuer);
        body.putArray("bearer_methods_supported").add("header");
        body.put("resource_name", "Baton MCP");
        // metadata built from the request's Host must not be cached for anyone else
        ctx.header("Cache-Control", resource != null ? "public, max-age=300" : "no-cache");
        ctx.contentType("application/json").result(body.toString());
    }

    /** RFC 9728 §5.1; {@code error} only when a token was presented (RFC 6750 §3.1). */
    private String challenge(Context ctx, McpAuthException e) {
        StringBuilder challenge = new StringBuilder("Bearer");
        String url = issuer == null ? null : metadataUrl(ctx);
        if (url != null) challenge.append(" resource_metadata=\"").append(url).append('"');
        if (e.tokenPresented()) {
            if (url != null) challenge.append(',');
            challenge.append(" error=\"invalid_token\"");
        }
        return challenge.toString();
    }

    /** Where the metadata of the resource is (RFC 9728 §3.1): the well-known path inserted before the resource's path. */
    private String metadataUrl(Context ctx) {
        if (resource != null) return metadataUrl(resource);
        String base = base(ctx);
        return base == null ? null : base + WELL_KNOWN + MCP_PATH;
    }

    /** {@code https://host/baton/mcp} → {@code https://host/.well-known/oauth-protected-resource/baton/mcp}. */
    static String metadataUrl(URI resource) {
        String path = resource.getRawPath() == null || resource.getRawPath().equals("/") ? "" : resource.getRawPath();
        return resource.getScheme() + "://" + resource.getRawAuthority() + WELL_KNOWN + path;
    }

    /** The scheme and host the request came to; null when its Host header is not a plain host name. */
    private static String base(Context ctx) {
        String host = ctx.header("Host");
        if (host == null || !HOST.matcher(host).matches()) return null;
        return ctx.scheme() + "://" + host;
    }
}
