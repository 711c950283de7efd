package dev.baton.server.web;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The web chat page (DESIGN §2): three static files from the class path under {@code web/}, served without a token
 * (the page asks the user for one and sends it to the API itself). A strict Content-Security-Policy keeps the page
 * to its own script and style, so nothing a model writes can run as code in it.
 */
public final class WebPageRoutes {

    /** Only this origin's script and style; no inline code, no third-party hosts (the page works offline). */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'";

    private record Asset(byte[] bytes, String contentType) {}

    private final Map<String, Asset> assets;

    /** Reads the page's files once; a missing one is a packaging bug and fails start-up. */
    public WebPageRoutes() {
        Asset page = load("index.html", "text/html; charset=utf-8");
        this.assets = Map.of(
                "/",
                page,
                "/index.html",
                page,
                "/app.js",
                load("app.js", "text/javascript; charset=utf-8"),
                "/app.css",
                load("app.css", "text/css; charset=utf-8"));
    }

    public void register(RoutesConfig routes) {
        assets.forEach((path, asset) -> routes.get(path, ctx -> serve(ctx, asset)));
    }

    private static void serve(Context ctx, Asset asset) {
        ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        // small and versioned with the server: revalidating each time keeps a page and its script in step
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType(asset.contentType()).result(asset.bytes());
    }

    private static Asset load(String name, String contentType) {
        String resource = "/web/" + name;
        try (InputStream in = WebPageRoutes.class.getResourceAsStream(resource)) {
            if (in == null)
                throw new IllegalStateException("web page resource missing from the class path: " + resource);
            return new Asset(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
