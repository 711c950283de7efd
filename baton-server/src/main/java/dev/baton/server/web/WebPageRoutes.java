package dev.baton.server.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * The web chat app (docs/api.md, "Web chat app"): static files from the class path (the page's own under
 * {@code web/}, its libraries from their WebJars), served without a token — the page signs in and sends the token
 * to the API itself — plus the two small endpoints the sign-in screen needs. A strict Content-Security-Policy keeps
 * the page to its own script and style, so nothing a model writes can run as code in it.
 *
 * <ul>
 *   <li>{@code GET /web/settings}: what the page should offer: development sign-in (and why not), images
 *   <li>{@code POST /web/dev-token}: a token for the development user, on a server that generated its own secret
 *       and only for a browser on the same machine (see {@link DevSignIn}); the route does not exist otherwise
 * </ul>
 */
public final class WebPageRoutes {

    /**
     * Only this origin's script, style, images and connections; no inline code, no plugins, no {@code <base>}, no
     * framing; forms are submitted by the page's script only. Nothing from other hosts (the page works offline).
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** When the operator allows answers' images: https images from anywhere, nothing else loosened. */
    static final String CONTENT_SECURITY_POLICY_WITH_IMAGES =
            CONTENT_SECURITY_POLICY.replace("img-src 'self'", "img-src 'self' https:");

    private final Map<String, WebAssets.Asset> assets;
    private final WebPageSettings settings;
    private final DevSignIn devSignIn;
    private final String contentSecurityPolicy;

    /** Reads the page's files once; a missing one is a packaging bug and fails start-up. */
    public WebPageRoutes(WebPageSettings settings, DevSignIn devSignIn) {
        this.assets = WebAssets.load();
        this.settings = settings;
        this.devSignIn = devSignIn;
        this.contentSecurityPolicy =
                settings.showImages() ? CONTENT_SECURITY_POLICY_WITH_IMAGES : CONTENT_SECURITY_POLICY;
    }

    /** The page with its defaults: images blocked, no development sign-in. */
    public WebPageRoutes() {
        this(WebPageSettings.DEFAULTS, DevSignIn.off());
    }

    public void register(RoutesConfig routes) {
        assets.forEach((path, asset) -> routes.get(path, ctx -> serve(ctx, asset)));
        routes.get("/web/settings", this::settings);
        if (devSignIn.offered()) routes.post("/web/dev-token", this::devToken);
    }

    private void serve(Context ctx, WebAssets.Asset asset) {
        secure(ctx);
        // small and versioned with the server: revalidating each time keeps a page and its scripts in step
        ctx.header("Cache-Control", "no-cache");
        ctx.header("ETag", asset.etag());
        if (asset.etag().equals(ctx.header("If-None-Match"))) {
            ctx.status(304);
            return;
        }
        ctx.contentType(asset.contentType()).result(asset.bytes());
    }

    private void settings(Context ctx) {
        secure(ctx);
        ctx.header("Cache-Control", "no-store");
        ObjectNode body = Json.MAPPER.createObjectNode();
        ObjectNode dev = body.putObject("devSignIn");
        Optional<String> refusal = devSignIn.refusal(ctx.req().getRemoteAddr(), ctx.header("Host"));
        dev.put("available", refusal.isEmpty());
        if (refusal.isPresent()) dev.put("reason", refusal.get());
        else dev.put("user", DevSignIn.USER).set("roles", Json.MAPPER.valueToTree(DevSignIn.ROLES));
        body.put("images", settings.showImages() ? "allow" : "block");
        ctx.json(body);
    }

    private void devToken(Context ctx) throws IOException {
        // the body says nothing, but it is read (bounded): left unread, it can make the server close the connection
        // after the answer, and a client that reuses it for its next request gets no answer at all
        RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), DEV_TOKEN_BODY_BYTES);
        secure(ctx);
        ctx.header("Cache-Control", "no-store");
        Optional<String> refusal = devSignIn.refusal(ctx.req().getRemoteAddr(), ctx.header("Host"));
        if (refusal.isPresent()) throw new ApiException(403, "forbidden", refusal.get());
        DevSignIn.Token token = devSignIn.mint();
        ctx.json(Json.MAPPER
                .createObjectNode()
                .put("token", token.jwt())
                .put("user", DevSignIn.USER)
                .put("expiresAt", token.expiresAt().toString()));
    }

    /** The most a dev-token request may carry: the web page sends {@code {}}. */
    private static final int DEV_TOKEN_BODY_BYTES = 1024;

    private void secure(Context ctx) {
        ctx.header("Content-Security-Policy", contentSecurityPolicy);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
    }
}
