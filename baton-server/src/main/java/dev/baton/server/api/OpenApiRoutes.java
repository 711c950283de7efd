package dev.baton.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * {@code GET /openapi.json}: the OpenAPI 3.1 document of the HTTP API, public like the web app. It is written as YAML
 * (comments, readable diffs) and served as JSON, converted once at startup; a document that does not parse stops the
 * server instead of being served broken.
 */
public final class OpenApiRoutes {
    /** Where the document lives on the class path. */
    public static final String RESOURCE = "/openapi/baton.yaml";

    private final byte[] json;
    private final String etag;

    public OpenApiRoutes() {
        this.json = toJson(read(RESOURCE));
        this.etag = etag(json);
    }

    public void register(RoutesConfig routes) {
        routes.get("/openapi.json", this::serve);
    }

    private void serve(Context ctx) {
        // versioned with the server, like the web app's files: revalidate each time, a 304 while it is unchanged
        ctx.header("Cache-Control", "no-cache");
        ctx.header("ETag", etag);
        ctx.header("X-Content-Type-Options", "nosniff");
        if (etag.equals(ctx.header("If-None-Match"))) {
            ctx.status(304);
            return;
        }
        ctx.contentType("application/json").result(json);
    }

    private static JsonNode read(String resource) {
        try (InputStream in = OpenApiRoutes.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("API document missing from the class path: " + resource);
            return new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("API document " + resource + " does not parse", e);
        }
    }

    private static byte[] toJson(JsonNode document) {
        try {
            return Json.MAPPER.writeValueAsBytes(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String etag(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
